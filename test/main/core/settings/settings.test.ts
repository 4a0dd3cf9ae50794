// Settings saved by an earlier version (src/main/core/settings/settings.ts): a member added since
// takes its default, one renamed since keeps its value and is saved again under its name now.
// Real files in a temporary data folder, through the real engine and its handler table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { writeJsonAtomic } from '../../../../src/main/core/platform/atomic-file.ts';
import { DEFAULT_SETTINGS } from '../../../../src/shared/settings.ts';
import { tempDir } from '../../../support/core.ts';
import { builtInCores } from '../support.ts';

const { core } = builtInCores();

describe('settings saved by an earlier version', () => {
  it('settings saved before scribeOverdueMinutes existed load with its default, and keep what they had', async () => {
    const dataDir = tempDir();
    const { scribeOverdueMinutes: _dropped, ...before } = {
      ...DEFAULT_SETTINGS,
      retentionDays: 30,
      lastTemplateId: 'soap',
    };
    await writeJsonAtomic(join(dataDir, 'settings.json'), before);
    const c = await core({ dataDir });
    expect(c.settings.get()).toEqual({ ...before, scribeOverdueMinutes: 30 });
    expect(c.settings.notice).toBeNull();
    expect(await createHandlers(c)['settings:update']({ scribeOverdueMinutes: 45 })).toMatchObject({
      ok: true,
      data: { scribeOverdueMinutes: 45, retentionDays: 30 },
    });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toMatchObject({
      scribeOverdueMinutes: 45,
    });
    expect(await createHandlers(c)['settings:update']({ scribeOverdueMinutes: 0 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
  });

  it('settings saved with the old name of “Sign in at the scribe address” (useLoginRow) keep it, and are saved again under its name now', async () => {
    const dataDir = tempDir();
    const { signInAtScribe: _now, ...rest } = DEFAULT_SETTINGS;
    await writeJsonAtomic(join(dataDir, 'settings.json'), { ...rest, useLoginRow: true, retentionDays: 30 });
    const c = await core({ dataDir });
    expect(c.settings.get()).toMatchObject({ signInAtScribe: true, retentionDays: 30 });
    expect(c.settings.notice).toBeNull();
    await createHandlers(c)['settings:update']({ scribeOverdueMinutes: 45 });
    const saved = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ signInAtScribe: true, retentionDays: 30 });
    expect(saved).not.toHaveProperty('useLoginRow');
  });
});
