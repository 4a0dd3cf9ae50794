// The recorder against the real core: chunks reach the recording on disk in order, one at a
// time, through failures; and the Record view's states. jsdom has no MediaRecorder or Web
// Audio, so the microphone itself is exercised by the Playwright suite; the chunks here are
// real MediaRecorder output (test/fixtures/audio/mediarecorder-5s).
import { readFileSync } from 'node:fs';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { Api } from '../../../../src/shared/ipc.ts';
import { ApiCallError, MAX_CHUNK_BYTES } from '../../../../src/shared/ipc-client.ts';
import type * as SenderModule from '../../../../src/renderer/src/features/recorder/chunk-sender.ts';
import type * as LevelModule from '../../../../src/renderer/src/features/recorder/audio-level.ts';
import type * as StopwatchModule from '../../../../src/renderer/src/features/recorder/stopwatch.ts';
import type * as DevicesModule from '../../../../src/renderer/src/lib/input-devices.ts';
import type * as ControllerModule from '../../../../src/renderer/src/features/recorder/recorder-controller.ts';
import type * as ViewModule from '../../../../src/renderer/src/features/recorder/recorder-view.tsx';
import type * as RecorderStoreModule from '../../../../src/renderer/src/stores/recorder.ts';
import type * as NavModule from '../../../../src/renderer/src/stores/nav.ts';
import type * as TemplatesStoreModule from '../../../../src/renderer/src/stores/templates.ts';
import { formatDuration } from '../../../../src/renderer/src/lib/duration.ts';
import { windowWithEngine } from '../../support/window.ts';
import { recordedAudio } from '../../support/recorded-consult.ts';

type Modules = typeof SenderModule &
  typeof LevelModule &
  typeof StopwatchModule &
  typeof DevicesModule &
  typeof ControllerModule &
  typeof ViewModule &
  typeof RecorderStoreModule &
  typeof NavModule &
  typeof TemplatesStoreModule & { api: Api };

let core: AppCore;
let m: Modules;

const { chunks, mimeType } = recordedAudio;
const total = chunks.reduce((n, c) => n + c.byteLength, 0);

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  m = {
    ...(await import('../../../../src/renderer/src/features/recorder/chunk-sender.ts')),
    ...(await import('../../../../src/renderer/src/features/recorder/audio-level.ts')),
    ...(await import('../../../../src/renderer/src/features/recorder/stopwatch.ts')),
    ...(await import('../../../../src/renderer/src/lib/input-devices.ts')),
    ...(await import('../../../../src/renderer/src/features/recorder/recorder-controller.ts')),
    ...(await import('../../../../src/renderer/src/features/recorder/recorder-view.tsx')),
    ...(await import('../../../../src/renderer/src/stores/recorder.ts')),
    ...(await import('../../../../src/renderer/src/stores/nav.ts')),
    ...(await import('../../../../src/renderer/src/stores/templates.ts')),
    api: (await import('../../../../src/renderer/src/api.ts')).api,
  };
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  await core.stop();
});

/** The real chunk call, watched: order, and how many calls are in flight at once. */
function watchedSend(fault?: (seq: number, call: number) => Error | null) {
  const log: { seq: number; bytes: number }[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let calls = 0;
  const send = async (chunk: SenderModule.ChunkInput) => {
    calls++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      // A pause, so a second call would overlap this one if the queue let it.
      await new Promise((r) => setTimeout(r, 5));
      const error = fault?.(chunk.seq, calls);
      if (error) throw error;
      const answer = await m.api.recording.chunk(chunk);
      log.push({ seq: chunk.seq, bytes: chunk.data.byteLength });
      return answer;
    } finally {
      inFlight--;
    }
  };
  return { send, log, stats: () => ({ calls, maxInFlight }) };
}

async function newRecording(): Promise<string> {
  return (await m.api.recording.start({ mimeType, patientName: 'Bella', description: 'Limping' })).id;
}

describe('chunk sender', () => {
  it('sends every chunk in order, one at a time, and main has all the bytes after stop', async () => {
    const id = await newRecording();
    const watched = watchedSend();
    const sender = m.createChunkSender({ id, send: watched.send });
    // Blobs, as MediaRecorder hands them over, all queued at once.
    chunks.forEach((c, i) => sender.push(new Blob([c], { type: mimeType }), (i + 1) * 1000));
    await sender.drain();

    expect(watched.log.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(watched.stats().maxInFlight).toBe(1);
    expect(sender.saved()).toEqual({ chunks: 5, bytes: total, elapsedMs: 5000 });
    expect((await core.recordings.get(id))?.bytes).toBe(total);

    const consult = await m.api.recording.stop({ id, durationMs: 5000 });
    expect(consult.recording.state).toBe('finished');
    const meta = await core.recordings.get(id);
    expect(meta?.chunks).toBe(5);
    expect(meta?.bytes).toBeGreaterThanOrEqual(total);
    const onDisk = readFileSync(core.recordings.audioPath(id));
    // Finishing writes the WebM Duration into the header; the audio after it is byte for byte.
    expect(Buffer.compare(onDisk.subarray(onDisk.byteLength - chunks[4]!.byteLength), Buffer.from(chunks[4]!))).toBe(0);
  });

  it('tries a failing call again and loses nothing', async () => {
    const id = await newRecording();
    const transient = new ApiCallError({
      code: 'host_unreachable',
      message: 'The app engine is not answering.',
      retryable: true,
    });
    const watched = watchedSend((seq, call) => (seq === 2 && call <= 4 ? transient : null));
    const retries: number[] = [];
    const sender = m.createChunkSender({
      id,
      send: watched.send,
      retryDelayMs: () => 2,
      onRetry: (_e, attempt) => retries.push(attempt),
    });
    chunks.forEach((c, i) => sender.push(c, (i + 1) * 1000));
    await sender.drain();

    // Calls 3 and 4 (chunk 2, twice) fail; the third try of chunk 2 goes through.
    expect(retries).toEqual([1, 2]);
    expect(watched.stats().calls).toBe(7);
    expect(watched.log.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(sender.failure()).toBeNull();
    await m.api.recording.stop({ id });
    const meta = await core.recordings.get(id);
    expect(meta?.chunks).toBe(5);
    expect(meta?.durationFixed).toBe(true);
  });

  it('waits out a full disk for as long as it takes (more tries than for other faults), saying so, and loses nothing', async () => {
    const id = await newRecording();
    const full = new ApiCallError({
      code: 'disk_full',
      message:
        'The disk is full: free some space on this computer. The recording so far is kept, and saving goes on once there is room.',
    });
    // Chunk 1 is refused eight times (the other faults give up after five tries).
    const watched = watchedSend((seq, call) => (seq === 1 && call <= 9 ? full : null));
    const said: (string | null)[] = [];
    const slept: number[] = [];
    const fatal: unknown[] = [];
    const sender = m.createChunkSender({
      id,
      send: watched.send,
      sleep: (ms) => (slept.push(ms), Promise.resolve()),
      onDiskProblem: (message) => said.push(message),
      onFatal: (e) => fatal.push(e),
    });
    chunks.forEach((c, i) => sender.push(c, (i + 1) * 1000));
    await sender.drain();
    expect(fatal).toEqual([]);
    expect(said).toEqual([...Array(8).fill(full.message), null]);
    expect(slept).toEqual(Array(8).fill(3000));
    expect(watched.log.map((l) => l.seq)).toEqual([0, 1, 2, 3, 4]);
    expect(sender.saved()).toEqual({ chunks: 5, bytes: total, elapsedMs: 5000 });
    expect((await core.recordings.get(id))?.bytes).toBe(total);
  });

  it('a resend of a chunk main already wrote (its answer lost) is harmless', async () => {
    const id = await newRecording();
    let lostOnce = false;
    const sender = m.createChunkSender({
      id,
      retryDelayMs: () => 1,
      send: async (chunk) => {
        const answer = await m.api.recording.chunk(chunk);
        if (chunk.seq === 1 && !lostOnce) {
          lostOnce = true;
          throw new Error('the answer was lost on the way back');
        }
        return answer;
      },
    });
    chunks.forEach((c, i) => sender.push(c, (i + 1) * 1000));
    await sender.drain();
    await m.api.recording.stop({ id });
    const meta = await core.recordings.get(id);
    expect(lostOnce).toBe(true);
    expect(meta?.chunks).toBe(5);
    expect(meta?.durationFixed).toBe(true);
  });

  it('when a chunk fails for good: says so at once with what is saved, sends nothing after it', async () => {
    const id = await newRecording();
    const down = new ApiCallError({ code: 'io', message: 'The disk is full.' });
    const watched = watchedSend((seq) => (seq === 2 ? down : null));
    const fatal: SenderModule.ChunkSendError[] = [];
    const sender = m.createChunkSender({
      id,
      send: watched.send,
      attempts: 3,
      retryDelayMs: () => 1,
      onFatal: (e) => fatal.push(e),
    });
    chunks.forEach((c, i) => sender.push(c, (i + 1) * 1000));
    await expect(sender.drain()).rejects.toThrow('The disk is full.');

    expect(fatal).toHaveLength(1);
    expect(fatal[0]!.seq).toBe(2);
    expect(fatal[0]!.savedElapsedMs).toBe(2000);
    expect(watched.stats().calls).toBe(2 + 3);
    expect(watched.log.map((l) => l.seq)).toEqual([0, 1]);
    await m.api.recording.stop({ id });
    const meta = await core.recordings.get(id);
    expect(meta?.chunks).toBe(2);
    expect(meta?.bytes).toBeGreaterThanOrEqual(chunks[0]!.byteLength + chunks[1]!.byteLength);
  });

  it('does not retry what main refuses for good (a finished recording)', async () => {
    const id = await newRecording();
    await m.api.recording.stop({ id });
    const watched = watchedSend();
    const fatal: unknown[] = [];
    const sender = m.createChunkSender({
      id,
      send: watched.send,
      retryDelayMs: () => 1,
      onFatal: (e) => fatal.push(e),
    });
    sender.push(chunks[0]!, 1000);
    await expect(sender.drain()).rejects.toThrow(/finished/);
    expect(watched.stats().calls).toBe(1);
    expect(fatal).toHaveLength(1);
  });

  it('splits a chunk larger than the IPC limit and skips empty ones', async () => {
    const id = await newRecording();
    const watched = watchedSend();
    const sender = m.createChunkSender({ id, send: watched.send });
    const big = new Uint8Array(MAX_CHUNK_BYTES * 2 + 1234).map((_, i) => i % 251);
    sender.push(chunks[0]!, 1000);
    sender.push(new Uint8Array(0), 1500);
    sender.push(big, 2000);
    await sender.drain();
    expect(watched.log.map((l) => l.bytes)).toEqual([chunks[0]!.byteLength, MAX_CHUNK_BYTES, MAX_CHUNK_BYTES, 1234]);
    expect(watched.log.map((l) => l.seq)).toEqual([0, 1, 2, 3]);
    const meta = await core.recordings.get(id);
    expect(meta?.bytes).toBe(chunks[0]!.byteLength + big.byteLength);
    await m.api.recording.stop({ id });
  });

  it('retries transport and disk failures, not refusals', () => {
    expect(m.isRetryable(new ApiCallError({ code: 'io', message: 'x' }))).toBe(true);
    expect(m.isRetryable(new ApiCallError({ code: 'service', message: 'x', retryable: true }))).toBe(true);
    expect(m.isRetryable(new Error('ipc broke'))).toBe(true);
    expect(m.isRetryable(new ApiCallError({ code: 'bad_state', message: 'x' }))).toBe(false);
    expect(m.isRetryable(new ApiCallError({ code: 'invalid_input', message: 'x' }))).toBe(false);
  });
});

describe('recorder arithmetic', () => {
  it('levels: silence is 0, full scale near 100, -30 dBFS in the middle', () => {
    const sine = (amp: number) =>
      Float32Array.from({ length: 2048 }, (_, i) => amp * Math.sin((2 * Math.PI * i * 440) / 48000));
    expect(m.levelFromSamples(new Float32Array(2048))).toBe(0);
    expect(m.levelFromSamples(sine(1))).toBeGreaterThanOrEqual(94);
    const mid = m.levelFromSamples(sine(Math.SQRT2 * 10 ** (-30 / 20)));
    expect(mid).toBeGreaterThanOrEqual(48);
    expect(mid).toBeLessThanOrEqual(52);
    expect(m.levelFromSamples(sine(0.0005))).toBeLessThan(m.SILENCE_LEVEL);
  });

  it('warns after 5 s of silence, not before, and not after a sound', () => {
    const watch = m.createSilenceWatch();
    expect(watch.update(0, 0)).toBe(false);
    expect(watch.update(0, 4999)).toBe(false);
    expect(watch.update(50, 5000)).toBe(false);
    expect(watch.update(0, 5100)).toBe(false);
    expect(watch.update(3, 10_100)).toBe(true);
    watch.reset();
    expect(watch.update(0, 10_200)).toBe(false);
  });

  it('elapsed time leaves paused stretches out; shown as m:ss, h:mm:ss past the hour', () => {
    let now = 1000;
    const sw = m.createStopwatch(() => now);
    sw.start();
    now += 65_000;
    sw.pause();
    now += 30_000;
    expect(sw.elapsedMs()).toBe(65_000);
    sw.resume();
    now += 5_500;
    expect(sw.elapsedMs()).toBe(70_500);
    expect(formatDuration(70_500)).toBe('1:10');
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
  });

  it('numbers nameless microphones and drops the browser aliases', () => {
    const hidden = m.describeDevices([{ deviceId: '', kind: 'audioinput', label: '' }]);
    expect(hidden).toEqual({ devices: [], namesHidden: true });
    const named = m.describeDevices([
      { deviceId: 'default', kind: 'audioinput', label: 'Default - USB mic' },
      { deviceId: 'a1', kind: 'audioinput', label: 'USB mic' },
      { deviceId: 'b2', kind: 'audioinput', label: '' },
      { deviceId: 'c3', kind: 'videoinput', label: 'Camera' },
    ]);
    expect(named.devices).toEqual([
      { deviceId: 'a1', label: 'USB mic' },
      { deviceId: 'b2', label: 'Microphone 2' },
    ]);
  });

  it('prefers Opus, falls back to WebM and says so', () => {
    expect(m.chooseMimeType(() => true)).toEqual({ mimeType: 'audio/webm;codecs=opus', info: null });
    const fallback = m.chooseMimeType((t) => t === 'audio/webm');
    expect(fallback.mimeType).toBe('audio/webm');
    expect(fallback.info).toMatch(/Opus/);
    expect(m.chooseMimeType(() => false).mimeType).toBeNull();
  });
});

describe('Record view', () => {
  it('shows every control by its name, and says when this window cannot record', () => {
    render(<m.RecorderView />);
    expect(screen.getByRole('combobox', { name: 'Microphone' })).toBeTruthy();
    expect(screen.getByRole('combobox', { name: 'Template' })).toBeTruthy();
    const meter = screen.getByRole('meter', { name: 'Input level' });
    expect(meter.getAttribute('aria-valuenow')).toBe('0');
    expect(meter.getAttribute('aria-valuemin')).toBe('0');
    expect(meter.getAttribute('aria-valuemax')).toBe('100');
    const start = screen.getByRole<HTMLButtonElement>('button', { name: 'Start recording' });
    // jsdom has no MediaRecorder: the view says so instead of failing on the first press.
    expect(start.disabled).toBe(true);
    expect(screen.getByRole('alert').textContent).toMatch(/cannot record audio/);

    const name = screen.getByRole('textbox', { name: "Patient's name" });
    expect(name.getAttribute('aria-required')).toBe('true');
    expect(screen.getByText(/leave out talk about other pets/)).toBeTruthy();
    fireEvent.change(name, { target: { value: 'Milo' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Visit description (optional)' }), {
      target: { value: 'Vomiting 2 days' },
    });
    expect(m.useRecorder.getState()).toMatchObject({ patientName: 'Milo', description: 'Vomiting 2 days' });
  });

  // Start before the patient's name, and the consult that waits for it: start-before-name.test.tsx.

  it('after a recording without a template: choose one, send it, open the consult', async () => {
    const id = await newRecording();
    await m.api.recording.chunk({ id, seq: 0, data: chunks[0]!, elapsedMs: 1000 });
    const consult = await m.api.recording.stop({ id });
    expect(consult.job).toBeNull();
    m.useRecorder.setState({
      status: 'stopped',
      templateId: null,
      result: {
        id,
        title: 'Bella — Limping',
        durationMs: consult.recording.durationMs,
        sent: false,
        interruption: m.DISCONNECTED_MESSAGE,
        needsName: false,
      },
    });

    render(<m.RecorderView />);
    expect(screen.getByRole('heading', { name: 'Recording saved — choose a template to send it' })).toBeTruthy();
    expect(screen.getByText(m.DISCONNECTED_MESSAGE)).toBeTruthy();
    expect(screen.getByText(/^Bella — Limping · 0:0\d recorded$/)).toBeTruthy();
    // One template field on screen: the one that sends this recording.
    expect(screen.getAllByRole('combobox', { name: 'Template' })).toHaveLength(1);
    const send = screen.getByRole<HTMLButtonElement>('button', { name: 'Send to be scribed' });
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
    await waitFor(() => expect(m.useTemplates.getState().items.length).toBeGreaterThan(0));
    const soap = m.useTemplates.getState().items.find((t) => t.name === 'SOAP')!;
    fireEvent.change(select, { target: { value: soap.id } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);

    // The card follows the consult as main reports it, up to its note.
    await screen.findByRole('heading', { name: 'Note ready' }, { timeout: 15_000 });
    const sent = core.cache.consult(id);
    expect(sent?.recording.templateId).toBe(soap.id);
    expect(sent?.job?.state).toBe('completed');
    fireEvent.click(screen.getByRole('button', { name: 'Open note' }));
    expect(m.useNav.getState().view).toEqual({ name: 'note', id });
  });
});
