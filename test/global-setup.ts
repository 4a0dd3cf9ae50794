// The whole suite runs with the core logging at debug into one file, and every sandbox noting
// each token it issues. At the end, no issued token may appear anywhere in the log.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-logcheck-'));
  const log = join(dir, 'core.log');
  const tokens = join(dir, 'tokens.txt');
  process.env['VET_SCRIBE_LOG_FILE'] = log;
  process.env['VET_SCRIBE_LOG_LEVEL'] = 'debug';
  process.env['SANDBOX_TOKEN_LOG'] = tokens;
  return () => {
    const issued = existsSync(tokens) ? [...new Set(readFileSync(tokens, 'utf8').split('\n').filter(Boolean))] : [];
    const text = existsSync(log) ? readFileSync(log, 'utf8') : '';
    const leaked = issued.filter((t) => text.includes(t) || text.includes(t.split('.')[2] ?? '\u0000'));
    const lines = text.split('\n').filter(Boolean).length;
    rmSync(dir, { recursive: true, force: true });
    console.log(
      `log check: ${issued.length} tokens issued, ${lines} debug log lines, ${leaked.length} tokens found in the log`,
    );
    if (leaked.length > 0) throw new Error(`${leaked.length} issued token(s) appear in the debug log`);
    // Under `npm test` (the whole suite) an empty log means the check checked nothing.
    if (process.env['npm_lifecycle_event'] === 'test' && issued.length > 0 && lines === 0)
      throw new Error('the suite issued tokens but the core wrote no log lines: the log check checked nothing');
  };
}
