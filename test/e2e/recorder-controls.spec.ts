// The recorder's own behaviour with the microphone and the MediaRecorder, in the real window
// and the real core: how the recorder is set up, pausing, letting go of the microphone, a
// microphone that goes away mid-consult, and the microphone list. Nothing of the app is
// mocked: a script that runs before the window's own code only watches the browser's media
// APIs (what the app asked of them, and the tracks it got), and for the device-list tests
// changes what the browser answers, as plugging a microphone in or out would.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import {
  expect,
  expectAccessible,
  go,
  mainNav,
  openApp,
  shot,
  signIn,
  test,
  type Demo,
  type TestHost,
} from './fixtures.ts';
import { DEFAULT_PATIENT, onlyConsult, probeSeconds, shownSeconds, typePatient } from './support/consults.ts';

// Runs in the page before the app's scripts (page-side code is plain JavaScript: the e2e
// tsconfig has no DOM types). It wraps, and keeps on `window.__vsProbe`:
// - every MediaRecorder made (the instance and the options it was given) and every start();
// - every track getUserMedia handed out, with the constraints asked for.
const PROBE = `(() => {
  if (window.__vsProbe) return;
  const probe = { recorders: [], starts: [], tracks: [], constraints: [] };
  window.__vsProbe = probe;
  const Original = window.MediaRecorder;
  if (typeof Original === 'function') {
    const start = Original.prototype.start;
    Original.prototype.start = function (...args) {
      probe.starts.push({ args: args.map((a) => (a === undefined ? null : a)), recorder: probe.recorders.findIndex((r) => r.instance === this) });
      return start.apply(this, args);
    };
    class WatchedMediaRecorder extends Original {
      constructor(stream, options) {
        super(stream, options);
        probe.recorders.push({ instance: this, options: options === undefined ? null : { ...options }, streamTracks: stream.getTracks() });
      }
    }
    window.MediaRecorder = WatchedMediaRecorder;
  }
  const devices = navigator.mediaDevices;
  if (devices && devices.getUserMedia) {
    const getUserMedia = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      const stream = await getUserMedia(constraints);
      probe.constraints.push(JSON.parse(JSON.stringify(constraints ?? null)));
      for (const track of stream.getTracks()) probe.tracks.push(track);
      return stream;
    };
  }
})();`;

interface RecorderSeen {
  options: { mimeType?: string; audioBitsPerSecond?: number } | null;
  mimeType: string;
  state: string;
}
interface TrackSeen {
  kind: string;
  label: string;
  readyState: string;
  deviceId: string | null;
}

/** Opens the window with the probe installed (the Electron window is already open: reloaded). */
async function openWatched(page: Page, host: TestHost, demo: Demo): Promise<void> {
  await page.addInitScript(PROBE);
  await openApp(page, host);
  if (!(await page.evaluate<boolean>('!!window.__vsProbe'))) {
    await page.reload();
    await expect(page.getByRole('button', { name: 'Sign in', exact: true }).or(mainNav(page))).toBeVisible();
  }
  expect(await page.evaluate<boolean>('!!window.__vsProbe'), 'the media probe runs before the app').toBe(true);
  if (!(await mainNav(page).isVisible())) await signIn(page, demo);
  await expect(page.getByRole('button', { name: 'Start recording', exact: true })).toBeVisible();
}

function recorders(page: Page): Promise<RecorderSeen[]> {
  return page.evaluate<RecorderSeen[]>(
    'window.__vsProbe.recorders.map((r) => ({ options: r.options, mimeType: r.instance.mimeType, state: r.instance.state }))',
  );
}

function starts(page: Page): Promise<{ args: unknown[]; recorder: number }[]> {
  return page.evaluate<{ args: unknown[]; recorder: number }[]>('window.__vsProbe.starts');
}

/** Every track the app got from getUserMedia, as it is now. */
function tracks(page: Page): Promise<TrackSeen[]> {
  return page.evaluate<TrackSeen[]>(
    'window.__vsProbe.tracks.map((t) => ({ kind: t.kind, label: t.label, readyState: t.readyState, deviceId: (t.getSettings && t.getSettings().deviceId) || null }))',
  );
}

const startButton = (page: Page) => page.getByRole('button', { name: 'Start recording', exact: true });
const stopButton = (page: Page) => page.getByRole('button', { name: 'Stop recording', exact: true });
const micCombo = (page: Page) => page.getByRole('combobox', { name: 'Microphone' });

/** Types the patient, presses "Start recording" and waits until the recorder runs; answers when that was. */
async function startRecording(page: Page): Promise<number> {
  await typePatient(page, DEFAULT_PATIENT);
  await startButton(page).click();
  await expect(stopButton(page)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Recording$/ })).toBeVisible();
  return Date.now();
}

async function optionLabels(page: Page): Promise<string[]> {
  return (await micCombo(page).locator('option').allTextContents()).map((t) => t.trim());
}

test('the MediaRecorder records Opus in WebM at 32 kbit/s in one-second slices', async ({ page, host, demo }) => {
  await openWatched(page, host, demo);
  expect(await recorders(page), 'no recorder before "Start recording"').toEqual([]);

  await startRecording(page);
  const made = await recorders(page);
  expect(made).toHaveLength(1);
  const [recorder] = made;
  expect(recorder?.options?.mimeType).toBe('audio/webm;codecs=opus');
  expect(recorder?.options?.audioBitsPerSecond).toBeGreaterThanOrEqual(31_000);
  expect(recorder?.options?.audioBitsPerSecond).toBeLessThanOrEqual(33_000);
  // Chromium took the type as asked, so what it writes is what the app told the core.
  expect(recorder?.mimeType.toLowerCase().replace(/\s/g, '')).toBe('audio/webm;codecs=opus');
  expect(recorder?.state).toBe('recording');
  expect(await starts(page)).toEqual([{ args: [1000], recorder: 0 }]);

  // The chunks of a one-second timeslice reach the core while the consult goes on.
  await expect
    .poll(async () => (await host.call('consults:list'))[0]?.recording.bytes ?? 0, { timeout: 8_000 })
    .toBeGreaterThan(0);
  await stopButton(page).click();
  await expect(startButton(page)).toBeVisible();
  const consult = await onlyConsult(host);
  expect(consult.recording.mimeType).toBe('audio/webm;codecs=opus');
});

test('Pause and Resume leave the paused stretch out of the elapsed time and the duration', async ({
  page,
  host,
  demo,
}) => {
  // Timings are read from the app's own clock (the elapsed time it shows) and the recording's
  // own length; the test's clock gives only outer bounds (before a press, after it took), so
  // a busy machine that is slow to press or to paint cannot fail it.
  await openWatched(page, host, demo);
  const beforeStart = Date.now();
  await startRecording(page);
  await expect.poll(() => shownSeconds(page), { timeout: 30_000, intervals: [100] }).toBeGreaterThanOrEqual(2);

  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Paused$/ })).toBeVisible();
  expect((await recorders(page))[0]?.state, 'the MediaRecorder itself is paused').toBe('paused');
  await expectAccessible(page, 'recorder-paused');
  await shot(page, 'recorder-paused');
  const atPause = await shownSeconds(page);
  expect(atPause).toBeGreaterThanOrEqual(2);
  expect(atPause * 1000, 'no more than the time up to the press').toBeLessThanOrEqual(Date.now() - beforeStart);
  const pausedFrom = Date.now();
  await page.waitForTimeout(3_000);
  expect(await shownSeconds(page), 'the elapsed time stands still while paused').toBe(atPause);
  const pausedFor = Date.now() - pausedFrom;

  const beforeResume = Date.now();
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  expect((await recorders(page))[0]?.state).toBe('recording');
  // It counts on from where it stood, not from the wall clock: the wall clock would jump by
  // the paused seconds at once.
  const afterResume = await shownSeconds(page);
  expect(afterResume, 'no jump by the paused stretch').toBeLessThanOrEqual(
    atPause + 1 + Math.ceil((Date.now() - beforeResume) / 1000),
  );
  await expect
    .poll(() => shownSeconds(page), { timeout: 30_000, intervals: [100] })
    .toBeGreaterThanOrEqual(atPause + 2);
  const shownAtStop = await shownSeconds(page);
  const readAt = Date.now();
  await stopButton(page).click();
  await expect(startButton(page)).toBeVisible();
  const afterStop = Date.now();

  const consult = await onlyConsult(host);
  const duration = consult.recording.durationMs;
  expect(consult.recording.state).toBe('finished');
  // The paused stretch (at least `pausedFor`, by the test's clock) is out of the recording.
  expect(
    duration,
    `duration ${duration} ms, ${afterStop - beforeStart} ms between the presses, paused ${pausedFor} ms`,
  ).toBeLessThanOrEqual(afterStop - beforeStart - pausedFor + 1_000);
  // The recording is as long as the elapsed time the vet saw, plus what passed until Stop.
  expect(duration).toBeGreaterThanOrEqual(shownAtStop * 1000 - 1_000);
  expect(duration).toBeLessThanOrEqual((shownAtStop + 1) * 1000 + (afterStop - readAt) + 1_000);
  const audio = join(host.dataDir, 'recordings', consult.recording.id, 'audio.webm');
  expect(Math.abs(probeSeconds(audio) * 1000 - duration), 'the WebM file is as long as the consult says').toBeLessThan(
    1_000,
  );

  // The Consults list says the same.
  await go(page, 'Consults');
  const shown = page.getByRole('main').getByText(/^Duration \d+:\d\d$/);
  await expect(shown).toHaveCount(1);
  const m = /(\d+):(\d\d)$/.exec((await shown.textContent()) ?? '');
  const listed = (Number(m?.[1]) * 60 + Number(m?.[2])) * 1000;
  expect(
    Math.abs(listed - duration),
    `the list shows ${listed / 1000} s for ${duration} ms of recording`,
  ).toBeLessThanOrEqual(1_000);
});

test('after Start the keyboard is on Pause, never Stop: Enter pressed twice pauses and resumes, and the consult goes on', async ({
  page,
  host,
  demo,
}) => {
  await openWatched(page, host, demo);
  await typePatient(page, DEFAULT_PATIENT);
  // Started from the keyboard, as a vet with busy hands does, then Enter again once it records.
  await startButton(page).focus();
  await page.keyboard.press('Enter');
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  await expect(pause).toBeFocused();
  // What the window shows, in one answer, so that a failure says where the recorder was.
  const recording = { focused: 'Pause', status: 'Recording', recorder: 'recording', alerts: [] };
  await expect.poll(() => recorderShown(page)).toEqual(recording);
  await page.keyboard.press('Enter');
  // The second press paused, it did not stop; the keyboard is on Resume.
  await expect
    .poll(() => recorderShown(page))
    .toEqual({ ...recording, focused: 'Resume', status: 'Paused', recorder: 'paused' });
  await page.keyboard.press('Enter');
  await expect.poll(() => recorderShown(page)).toEqual(recording);
  await stopButton(page).click();
  await expect(startButton(page)).toBeVisible();
});

/** The focused element's text, the recorder's status line and its MediaRecorder, and the alerts of the Record view. */
function recorderShown(page: Page): Promise<{ focused: string; status: string; recorder: string; alerts: string[] }> {
  return page.evaluate<{ focused: string; status: string; recorder: string; alerts: string[] }>(`({
    focused: (document.activeElement?.textContent ?? '').trim(),
    status: (document.querySelector('.rec-indicator')?.textContent ?? '').trim(),
    recorder: window.__vsProbe.recorders.at(-1)?.instance.state ?? 'none',
    alerts: [...document.querySelectorAll('.recorder [role="alert"]')].map((a) => (a.textContent ?? '').trim()),
  })`);
}

test('the microphone is released as soon as the recording stops', async ({ page, host, demo }) => {
  await openWatched(page, host, demo);
  expect(await tracks(page), 'the microphone stays closed until "Start recording"').toEqual([]);

  await startRecording(page);
  const open = await tracks(page);
  expect(open.length).toBeGreaterThan(0);
  expect(open.filter((t) => t.kind === 'audio' && t.readyState === 'live')).toHaveLength(1);
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Resume', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Resume', exact: true }).click();
  await page.waitForTimeout(1_500);

  await stopButton(page).click();
  await expect(startButton(page)).toBeVisible();
  const after = await tracks(page);
  expect(after.length).toBe(open.length);
  expect(after.map((t) => `${t.kind} ${t.label}: ${t.readyState}`)).toEqual(
    after.map((t) => `${t.kind} ${t.label}: ended`),
  );
  await expect(page.getByRole('meter', { name: 'Input level' })).toHaveAttribute('aria-valuetext', 'Not listening');

  // A second consult opens the microphone again and lets it go again.
  await startRecording(page);
  expect((await tracks(page)).filter((t) => t.readyState === 'live')).toHaveLength(1);
  await page.waitForTimeout(1_200);
  await stopButton(page).click();
  await expect(startButton(page)).toBeVisible();
  expect((await tracks(page)).filter((t) => t.readyState !== 'ended')).toEqual([]);
});

test('a microphone lost mid-consult stops the recording, keeps it and says so', async ({ page, host, demo }) => {
  await openWatched(page, host, demo);
  await startRecording(page);
  // The fixture has speech from its first second on; let a few chunks reach the core.
  await page.waitForTimeout(3_000);

  await page.evaluate<void>(`(() => {
    const live = window.__vsProbe.tracks.filter((t) => t.kind === 'audio' && t.readyState === 'live');
    if (live.length !== 1) throw new Error(live.length + ' live audio tracks');
    live[0].dispatchEvent(new Event('ended'));
  })()`);

  const alert = page.getByRole('alert').filter({ hasText: 'The microphone was disconnected' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('The recording up to that moment is saved.');
  await expect(startButton(page)).toBeVisible();
  await expect(stopButton(page)).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: /^Recording ended$/ })).toBeVisible();
  await expectAccessible(page, 'recorder-microphone-lost');
  await shot(page, 'recorder-microphone-lost');
  // What is left of the microphone is let go too.
  expect((await tracks(page)).filter((t) => t.readyState !== 'ended')).toEqual([]);

  const consult = await onlyConsult(host);
  expect(consult.recording.state).toBe('finished');
  expect(consult.recording.bytes).toBeGreaterThan(0);
  expect(consult.recording.durationMs).toBeGreaterThan(2_000);
  const audio = join(host.dataDir, 'recordings', consult.recording.id, 'audio.webm');
  expect(existsSync(audio), audio).toBe(true);
  expect(probeSeconds(audio)).toBeGreaterThan(2);

  await go(page, 'Consults');
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('main').getByText(/^Duration 0:0[2-5]$/)).toBeVisible();
  const { url } = await host.call('consults:audioUrl', { id: consult.recording.id });
  expect(url).toBeTruthy();
});

test('the Microphone list follows a device change', async ({ page, host, demo }) => {
  await openWatched(page, host, demo);
  const combo = micCombo(page);
  // Chromium's fake devices: "default" is its alias for the system's choice, not listed twice.
  await expect
    .poll(() => optionLabels(page))
    .toEqual(['System default microphone', 'Fake Audio Input 1', 'Fake Audio Input 2']);

  // "Fake Audio Input 2" is unplugged and a USB microphone plugged in.
  await page.evaluate<void>(`(() => {
    const devices = navigator.mediaDevices;
    const enumerate = devices.enumerateDevices.bind(devices);
    devices.enumerateDevices = async () => {
      const all = await enumerate();
      const kept = all.filter((d) => d.label !== 'Fake Audio Input 2');
      return [...kept, { deviceId: 'usb-test-microphone', groupId: 'usb-test', kind: 'audioinput', label: 'USB Test Microphone', toJSON() { return this; } }];
    };
    devices.dispatchEvent(new Event('devicechange'));
  })()`);
  await expect
    .poll(() => optionLabels(page))
    .toEqual(['System default microphone', 'Fake Audio Input 1', 'USB Test Microphone']);
  await expect(combo.locator('option', { hasText: 'USB Test Microphone' })).toHaveAttribute(
    'value',
    'usb-test-microphone',
  );

  // And plugged back: the list follows again.
  await page.evaluate<void>(`(() => {
    const devices = navigator.mediaDevices;
    delete devices.enumerateDevices;
    devices.dispatchEvent(new Event('devicechange'));
  })()`);
  await expect
    .poll(() => optionLabels(page))
    .toEqual(['System default microphone', 'Fake Audio Input 1', 'Fake Audio Input 2']);
});

test('the chosen microphone is remembered after a reload and used to record', async ({ page, host, demo }) => {
  await openWatched(page, host, demo);
  const combo = micCombo(page);
  await expect(combo.locator('option', { hasText: 'Fake Audio Input 2' })).toHaveCount(1);
  const id = (await combo.locator('option', { hasText: 'Fake Audio Input 2' }).getAttribute('value')) ?? '';
  expect(id).not.toBe('');
  await combo.selectOption({ label: 'Fake Audio Input 2' });
  await expect(combo).toHaveValue(id);
  await expect.poll(async () => (await host.call('settings:get')).inputDeviceId).toBe(id);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in', exact: true }).or(mainNav(page))).toBeVisible();
  if (!(await mainNav(page).isVisible())) await signIn(page, demo);
  await expect(combo).toHaveValue(id);
  await expect(combo.locator('option:checked')).toHaveText('Fake Audio Input 2');
  await expect(page.getByText('The microphone chosen last time is not connected')).toHaveCount(0);

  // The recording asks for exactly that microphone, and gets it.
  await startRecording(page);
  const asked = await page.evaluate<unknown[]>('window.__vsProbe.constraints');
  expect(asked.at(-1)).toMatchObject({ audio: { deviceId: { exact: id } } });
  const live = (await tracks(page)).filter((t) => t.readyState === 'live');
  expect(live).toHaveLength(1);
  expect(live[0]?.deviceId).toBe(id);
  expect(live[0]?.label).toBe('Fake Audio Input 2');
  await expect(combo).toBeDisabled();
  await page.waitForTimeout(1_200);
  await stopButton(page).click();
  await expect(startButton(page)).toBeVisible();
  await expect(combo).toHaveValue(id);
});

// The microphone goes away while the window waits for the core to open the recording: the
// recording's own listeners are not attached yet, and MediaRecorder.start() would throw on a
// stream that is no longer active. The window must come back ready, say why, and leave no
// empty recording open in the core.
test('a microphone lost while the recording is being opened does not leave the window stuck', async ({
  page,
  host,
  demo,
}) => {
  await openWatched(page, host, demo);
  // The core's answer to "recording:start" is held until the microphone is gone: the order of
  // a microphone unplugged during "Opening the microphone…", every run.
  let answer: () => void = () => {};
  const held = new Promise<void>((resolve) => (answer = resolve));
  await page.route(/\/ipc\/recording(%3A|:)start$/i, async (route) => {
    await held;
    await route.continue();
  });
  await typePatient(page, DEFAULT_PATIENT);
  await startButton(page).click();
  await expect(page.getByRole('status').filter({ hasText: 'Opening the microphone' })).toBeVisible();
  await expect.poll(async () => (await tracks(page)).length).toBe(1);
  // As an unplugged microphone: the track ends (readyState "ended") and says so.
  await page.evaluate<void>(`(() => {
    const track = window.__vsProbe.tracks[0];
    track.stop();
    track.dispatchEvent(new Event('ended'));
  })()`);
  answer();

  await expect(startButton(page), 'the window is ready to record again').toBeVisible({ timeout: 5_000 });
  await expect(page.getByRole('alert').filter({ hasText: /microphone/i })).toBeVisible({ timeout: 1_000 });
  const left = (await host.call('consults:list')).filter(
    (c) => c.recording.state === 'recording' || c.recording.state === 'paused',
  );
  expect(left, 'no recording is left open in the core').toEqual([]);
  expect(await host.call('consults:list'), 'nothing was recorded, so nothing is listed').toEqual([]);
});
