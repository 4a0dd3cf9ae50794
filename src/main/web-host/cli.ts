// `npm run preview:web -- --port 0 [--data-dir D]`: the browser host, for testing and
// development. Prints one JSON line with its `url` (with this run's access token, or
// VET_SCRIBE_HOST_TOKEN's) and the embedded sandbox's `demo` account, then serves until stopped. Lines
// on its input stand for the tray's commands ("recorder start", "recorder stop"...).
// The sandbox takes its options from SANDBOX_* environment variables (src/sandbox/README.md).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { RECORDER_ACTIONS, type RecorderAction } from '../../shared/desktop.ts';
import { parseOptions } from '../../sandbox/index.ts';
import { loopbackHost, startWebHost } from './host.ts';

const { values } = parseArgs({
  options: {
    'renderer-dir': { type: 'string' },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'data-dir': { type: 'string' },
    'memory-tokens': { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`preview:web: --port must be a whole number from 0 to 65535, not "${values.port}"`);
  process.exit(2);
}
if (!loopbackHost(values.host)) {
  console.error(
    `preview:web: --host must be this computer (127.0.0.1, ::1 or localhost), not "${values.host}": the host serves a signed-in session to whoever reaches it.`,
  );
  process.exit(2);
}
const accessToken = process.env['VET_SCRIBE_HOST_TOKEN'];
if (accessToken !== undefined && accessToken.length < 32) {
  console.error('preview:web: VET_SCRIBE_HOST_TOKEN must be at least 32 characters.');
  process.exit(2);
}
const rendererDir = values['renderer-dir'] ?? join(import.meta.dirname, '../../../out/renderer');
if (!existsSync(join(rendererDir, 'index.html'))) {
  console.error('preview:web: the window is not built yet (out/renderer); run "npm run build" first.');
  process.exit(2);
}
const dataDir = values['data-dir'] ?? mkdtempSync(join(tmpdir(), 'vet-scribe-web-'));
let sandbox;
try {
  sandbox = parseOptions([], process.env);
} catch (e) {
  console.error(`preview:web: ${(e as Error).message}`);
  process.exit(2);
}
const { port: _p, host: _h, dataDir: _d, ...sandboxOverrides } = sandbox;
const host = await startWebHost({
  port,
  host: values.host,
  dataDir,
  rendererDir,
  sandbox: sandboxOverrides,
  memoryTokens: values['memory-tokens'],
  accessToken,
});
// The address carries this run's token once; the host keeps it in cookies named after its port
// from there on, so a second host in the same browser leaves this one's alone (src/main/README.md).
process.stdout.write(
  `${JSON.stringify({ url: host.openUrl, data_dir: dataDir, demo: host.core.appInfo().sandbox?.demo ?? null })}\n`,
);
// A browser has no tray and no global shortcut: their commands to the recorder can be typed
// here instead, one a line ("recorder start", "recorder pause", "recorder stop"...).
createInterface({ input: process.stdin }).on('line', (line) => {
  const [word, action, ...rest] = line.trim().split(/\s+/);
  if (word === 'recorder' && rest.length === 0 && (RECORDER_ACTIONS as readonly string[]).includes(action ?? '')) {
    host.core.emit('recorder:command', { action: action as RecorderAction });
  } else if (line.trim() !== '') {
    console.error(
      `preview:web: "${line.trim().slice(0, 80)}" is not a command; try: recorder ${RECORDER_ACTIONS.join('|')}`,
    );
  }
});
const stop = () => void host.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
