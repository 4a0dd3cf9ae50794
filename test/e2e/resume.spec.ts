import type { JobState } from '../../src/shared/jobs.ts';
import { expect, go, mainNav, openApp, shot, signIn, test } from './fixtures.ts';
import { consults, expectNoteReady, onlyConsult, startAndRecord } from './support/consults.ts';

// Every answer of the service takes 1.5 s, so each step of the pipeline can be caught mid-way.
test.use({ sandbox: { latencyMs: 1500 } });

const BEFORE_UPLOADED: readonly JobState[] = ['recorded', 'recording_session_created', 'upload_url'];
const IN_PROGRESS: readonly JobState[] = [...BEFORE_UPLOADED, 'uploaded', 'scribe_requested'];

test('a host killed mid-upload resumes the consult after a restart', async ({ page, host, demo }) => {
  await startAndRecord(page, host, demo, { seconds: 4 });
  await go(page, 'Consults');

  // Kill it while the audio is on its way: after the upload URL, before the upload is done.
  let state: JobState | undefined;
  await expect
    .poll(
      async () => {
        state = (await consults(host))[0]?.job?.state;
        return state === 'upload_url' || (state !== undefined && !BEFORE_UPLOADED.includes(state));
      },
      { timeout: 30_000, intervals: [100] },
    )
    .toBe(true);
  expect(IN_PROGRESS, `job state when the host is killed`).toContain(state);
  const main = page.getByRole('main');
  await expect(
    main.getByText(/^(Getting ready to send|Waiting to upload|Uploading|Uploaded|Scribing)/).first(),
  ).toBeVisible();
  await expect(main.getByRole('article').getByText('Note ready', { exact: true })).toHaveCount(0);
  await shot(page, 'consult-in-progress');

  await host.restart();
  await openApp(page, host);
  // Without a system keychain the sign-in was kept in memory and died with the host.
  if (!(await mainNav(page).isVisible())) await signIn(page, demo);
  await go(page, 'Consults');
  await expectNoteReady(page, 60_000);

  const consult = await onlyConsult(host);
  expect(consult.job?.state).toBe('completed');
  expect(consult.job?.hasNote).toBe(true);
});
