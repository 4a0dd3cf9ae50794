// `npm run preview:web -- --port 0 [--data-dir D]`: the browser host. Prints one JSON line
// with its `url` and the embedded sandbox's `demo` account, then serves until stopped.
// The sandbox takes its options from SANDBOX_* environment variables (src/sandbox/README.md).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseOptions } from '../../sandbox/index.ts';
import { startWebHost } from './host.ts';

const { values } = parseArgs({
  options: {
    'renderer-dir': { type: 'string' },
    port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' }, 'data-dir': { type: 'string' }, 'memory-tokens': { type: 'boolean', default: false } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`preview:web: --port must be a whole number from 0 to 65535, not "${values.port}"`);
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
const host = await startWebHost({ port, host: values.host, dataDir, rendererDir, sandbox: sandboxOverrides, memoryTokens: values['memory-tokens'] });
process.stdout.write(`${JSON.stringify({ url: host.url, data_dir: dataDir, demo: host.core.appInfo().sandbox?.demo ?? null })}\n`);
const stop = () => void host.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
