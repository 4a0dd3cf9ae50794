// The command leaves out the warning node:sqlite prints on some Node versions, and no other.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './support.ts';

describe('quietSqliteWarning', () => {
  it("the command leaves out only node:sqlite's ExperimentalWarning", () => {
    const script = [
      `import { quietSqliteWarning } from ${JSON.stringify(join(ROOT, 'src/webhook-receiver/quiet-sqlite-warning.ts'))};`,
      'quietSqliteWarning();',
      "process.emitWarning('SQLite is an experimental feature and might change at any time', 'ExperimentalWarning');",
      "process.emitWarning('something else is experimental', 'ExperimentalWarning');",
    ].join('\n');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 10_000,
    });
    expect(run.status).toBe(0);
    expect(run.stderr).not.toMatch(/SQLite/);
    expect(run.stderr).toMatch(/ExperimentalWarning: something else is experimental/);
  });
});
