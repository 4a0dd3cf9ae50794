// The engine's log file (src/main/core/platform/log.ts, loggerFromEnv): a line that cannot be written is
// dropped, never thrown into the call it was noting. /dev/full answers every write with ENOSPC,
// as a full disk does.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loggerFromEnv } from '../../../../src/main/core/platform/log.ts';
import { tempDir } from '../../../support/core.ts';

describe('the log file', () => {
  it.runIf(existsSync('/dev/full'))('drops a line the full disk refuses instead of throwing it', () => {
    const log = loggerFromEnv({ VET_SCRIBE_LOG_FILE: '/dev/full', VET_SCRIBE_LOG_LEVEL: 'debug' });
    expect(() => log.debug('recording:stop: disk_full')).not.toThrow();
    expect(() => log.error('anything')).not.toThrow();
  });

  it('writes lines at its level and above, and none below', () => {
    const file = join(tempDir('vet-scribe-log-'), 'engine.log');
    const log = loggerFromEnv({ VET_SCRIBE_LOG_FILE: file, VET_SCRIBE_LOG_LEVEL: 'info' });
    log.debug('not this one');
    log.info('this one');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/\[info\] this one\n$/);
    expect(text).not.toMatch(/not this one/);
  });
});
