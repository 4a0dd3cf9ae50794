// A recording left running, in the real window with the page's clock under the test's control
// (Playwright's clock: the recorder's timers and its stopwatch run fast, the microphone and the
// MediaRecorder in real time). The room is silent: a script before the app's own code hands it
// the microphone's stream passed through a gain of zero, as a muted microphone would.
import { expect, shot, start, test } from './fixtures.ts';
import { DEFAULT_PATIENT, onlyConsult, typePatient } from './support/consults.ts';

const SILENT_ROOM = `(() => {
  const devices = navigator.mediaDevices;
  const getUserMedia = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints) => {
    const heard = await getUserMedia(constraints);
    const ctx = new AudioContext();
    const gain = ctx.createGain();
    gain.gain.value = 0;
    const out = ctx.createMediaStreamDestination();
    ctx.createMediaStreamSource(heard).connect(gain).connect(out);
    // Stopping the silent track lets go of the microphone too.
    const track = out.stream.getAudioTracks()[0];
    const stop = track.stop.bind(track);
    track.stop = () => { stop(); for (const t of heard.getTracks()) t.stop(); };
    return out.stream;
  };
})();`;

test('"Still recording?" after 3 silent minutes; a warning 5 minutes before the maximum length; then it stops by itself and keeps the recording', async ({
  page,
  host,
  demo,
}) => {
  await host.call('settings:update', { maxRecordingMinutes: 10 });
  // The clock first: installed after the silent room's script, it does not reach the app.
  await page.clock.install();
  await page.addInitScript(SILENT_ROOM);
  await start(page, host, demo);
  await typePatient(page, DEFAULT_PATIENT);
  await page.getByRole('button', { name: 'Start recording', exact: true }).click();
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toBeVisible();
  // Recording for real (the microphone open, main's recording started) before time is moved.
  await expect(page.getByText('Opening the microphone…')).toHaveCount(0, { timeout: 30_000 });
  const still = page.getByRole('alert').filter({ hasText: 'Still recording? Nothing has been heard for 3 minutes.' });
  const ending = page.getByRole('alert').filter({ hasText: /^The recording stops by itself in \d+ minutes?/ });

  await page.clock.runFor('02:50');
  await expect(still).toHaveCount(0);
  await page.clock.runFor('00:20');
  await expect(still).toBeVisible();
  await expect(still.getByRole('button', { name: 'Stop recording' })).toBeVisible();
  await expect(ending).toHaveCount(0);
  await shot(page, 'still-recording');

  // Five minutes before the maximum (10 min in Settings): the warning, the recording goes on.
  await page.clock.runFor('02:00');
  await expect(ending).toHaveText(
    'The recording stops by itself in 5 minutes: it has nearly reached the maximum length set in Settings. What is recorded is kept.',
  );
  await expect(pause).toBeVisible();
  await page.clock.runFor('04:00');
  await expect(ending).toContainText('in 1 minute:');

  await page.clock.runFor('01:10');
  await expect(
    page.getByText(
      'The recording stopped by itself at the maximum length of 10 minutes (Settings). Everything recorded is kept.',
    ),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
  const consult = await onlyConsult(host);
  expect(consult.recording).toMatchObject({ state: 'finished', patientName: DEFAULT_PATIENT.name });
  // What the microphone gave in the real seconds the test took is all there.
  expect(consult.recording.bytes).toBeGreaterThan(0);
  expect(consult.recording.durationMs).toBeGreaterThan(0);
});
