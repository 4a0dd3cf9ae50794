// The update rules as plain functions: which feeds are taken, when a restart is refused, and
// what the banner says.
import { describe, expect, it } from 'vitest';
import { restartRefusal, updateBanner, updateFeedProblem } from '../../src/shared/updates.ts';
import { DEFAULT_SETTINGS, settingsPatchSchema } from '../../src/shared/settings.ts';

describe('updateFeedProblem', () => {
  it('takes https, http on this computer only, and none', () => {
    for (const ok of [
      '',
      'https://updates.clinic.example/vet-scribe/',
      'http://127.0.0.1:8080/feed/',
      'http://localhost/feed',
    ])
      expect(updateFeedProblem(ok), ok).toBeNull();
    expect(DEFAULT_SETTINGS.updateFeedUrl).toBe('');
  });

  it('says what is wrong', () => {
    expect(updateFeedProblem('updates.clinic.example')).toBe(
      'is not an address (it should look like https://updates.clinic.example/vet-scribe/)',
    );
    expect(updateFeedProblem('http://updates.clinic.example/')).toBe(
      'must be an https:// address (http:// only for this computer)',
    );
    expect(updateFeedProblem('ftp://updates.clinic.example/')).toBe(
      'must be an https:// address (http:// only for this computer)',
    );
    expect(updateFeedProblem('https://it:secret@updates.clinic.example/')).toBe(
      'must not carry a user name or password',
    );
    expect(
      settingsPatchSchema.safeParse({ updateFeedUrl: 'http://updates.clinic.example/' }).error?.issues[0],
    ).toMatchObject({ path: ['updateFeedUrl'] });
  });
});

describe('restartRefusal and the banner', () => {
  const ready = { phase: 'ready' as const, version: '0.2.0', message: 'Update ready: restart when free.' };

  it('refuses while recording, then while sending, and allows once free', () => {
    expect(restartRefusal({ recording: true, uploading: true })).toMatch(/^A consult is being recorded/);
    expect(restartRefusal({ recording: false, uploading: true })).toMatch(/^A recording is being sent to the service/);
    expect(restartRefusal({ recording: false, uploading: false })).toBeNull();
  });

  it('shows the banner only for a ready update, with Restart now only when free', () => {
    expect(
      updateBanner({ phase: 'downloading', version: '0.2.0', message: null }, { recording: false, uploading: false }),
    ).toBeNull();
    expect(updateBanner(ready, { recording: false, uploading: false })).toEqual({
      text: 'Update ready (version 0.2.0): restart when free.',
      canRestart: true,
    });
    expect(updateBanner(ready, { recording: true, uploading: false })).toEqual({
      text: 'Update ready (version 0.2.0): restart when free. A consult is being recorded: the update is installed once the recording has stopped and you restart, or when you quit.',
      canRestart: false,
    });
  });
});
