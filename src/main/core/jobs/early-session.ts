// The recording session and its upload address, asked for while the consult is still being
// recorded, so that at Stop the job starts at the upload. Made at most once per recording, a
// moment after the patient's name was last changed (a name being typed is not sent half-way),
// with the sign-in of the recording's owner only. At Stop the job takes it only if the name,
// the description, the date, the owner and the service are still those it was made with: the
// service keeps the name given with the session and has no way to change it, so a session
// made under a name changed since is left unused and a new one is made. A recording deleted
// meanwhile, a refusal or no network: nothing is said, nothing is uploaded, and Stop makes the
// session as it would have without this.
import { localDate, type RecordingMeta } from '../recordings/index.ts';
import type { Engine, EarlySessionsPart } from './context.ts';
import type { JobRecord } from './record.ts';
import { withToken } from './sender.ts';

/** What the session was made with: all must still hold at Stop for the job to use it. */
interface Made {
  patientName: string;
  description: string;
  sessionDate: string;
  sender: string | null;
  service: string;
  sessionId: string;
  /** Null when the session was made but its address was not given: the job asks for one. */
  upload: JobRecord['upload'];
}

interface Entry {
  timer: ReturnType<typeof setTimeout> | null;
  controller: AbortController | null;
  making: Promise<Made | null> | null;
  made: Made | null;
}

export class EarlySessions implements EarlySessionsPart {
  private readonly engine: Engine;
  private readonly entries = new Map<string, Entry>();
  /** Recordings whose session was asked for already: at most once each. */
  private readonly asked = new Set<string>();

  constructor(engine: Engine) {
    this.engine = engine;
  }

  /**
   * The recording's patient's name (or description) is set or changed while it is recorded: the
   * session is asked for once it has settled, unless one was asked for already.
   */
  named(recordingId: string): void {
    const { earlySession, earlySessionDelayMs } = this.engine.options;
    if (!earlySession || this.asked.has(recordingId)) return;
    const entry = this.entries.get(recordingId) ?? { timer: null, controller: null, making: null, made: null };
    this.entries.set(recordingId, entry);
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void this.make(recordingId, entry);
    }, earlySessionDelayMs);
    entry.timer.unref?.();
  }

  /**
   * The session and address made while recording, for a job about to start: null when none was
   * made or it no longer fits the consult (then it is left unused). A request still on its way
   * is waited for: it is further along than a new one would be.
   */
  async take(meta: RecordingMeta): Promise<Pick<Made, 'sessionId' | 'upload'> | null> {
    const entry = this.entries.get(meta.id);
    if (!entry) return null;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    const made = entry.made ?? (await entry.making) ?? null;
    this.entries.delete(meta.id);
    if (!made) return null;
    const fits =
      made.patientName === (meta.patientName ?? '').trim() &&
      made.description === (meta.description ?? '') &&
      made.sessionDate === localDate(meta.startedAt) &&
      made.sender === this.engine.options.sender(meta.id) &&
      made.service === this.engine.options.serviceKey();
    if (!fits) {
      this.engine.counters.earlySessionsUnused += 1;
      return null;
    }
    this.engine.counters.earlySessionsUsed += 1;
    return { sessionId: made.sessionId, upload: made.upload };
  }

  /** The recording was deleted (or the app stops): a request on its way is cancelled, and nothing is kept. */
  drop(recordingId: string): void {
    const entry = this.entries.get(recordingId);
    if (!entry) return;
    if (entry.timer) clearTimeout(entry.timer);
    entry.controller?.abort();
    if (entry.made) this.engine.counters.earlySessionsUnused += 1;
    this.entries.delete(recordingId);
  }

  dropAll(): void {
    for (const id of [...this.entries.keys()]) this.drop(id);
  }

  private make(recordingId: string, entry: Entry): Promise<Made | null> {
    const controller = new AbortController();
    entry.controller = controller;
    entry.making = this.ask(recordingId, controller.signal)
      .catch((e: unknown) => {
        this.engine.options.log?.(`pipeline: ${recordingId}: no session while recording (${(e as Error).message})`);
        return null;
      })
      .then((made) => {
        entry.controller = null;
        // Dropped meanwhile (deleted): kept nowhere, so never used.
        if (this.entries.get(recordingId) !== entry) return null;
        if (!made) this.entries.delete(recordingId);
        entry.made = made;
        return made;
      });
    return entry.making;
  }

  private async ask(recordingId: string, signal: AbortSignal): Promise<Made | null> {
    const { options, counters } = this.engine;
    const meta = await options.recordings.get(recordingId);
    const patientName = meta?.patientName?.trim();
    if (!meta || (meta.state !== 'recording' && meta.state !== 'paused') || !patientName) return null;
    // At most once: asked from here on, whatever the answer.
    this.asked.add(recordingId);
    const description = meta.description ?? '';
    const sessionDate = localDate(meta.startedAt);
    const sender = options.sender(recordingId);
    const service = options.serviceKey();
    // The owner's own request: the consult's sign-in, as its job would use.
    const owners = { recordingId, actor: null };
    const session = await withToken(this.engine, owners, signal, (t, s) =>
      options.client.createSession(t, { patientName, description, sessionDate }, s),
    );
    counters.earlySessions += 1;
    // Told at once, used or not: one left unused (a name changed, the recording deleted, the app
    // stopped) stays at the service, and must never be listed as a visit recorded elsewhere.
    this.engine.emit('sessionMade', session.id);
    const made = { patientName, description, sessionDate, sender, service, sessionId: session.id, upload: null };
    // The session is worth keeping even when its address is not given now: the job asks again.
    const answer = await withToken(this.engine, owners, signal, (t, s) =>
      options.client.uploadUrl(t, { sessionId: session.id }, s),
    ).catch((e: unknown) => {
      if (signal.aborted) throw e;
      return null;
    });
    if (!answer) return made;
    return {
      ...made,
      upload: {
        url: answer.uploadUrl,
        fileKey: answer.fileKey ?? null,
        expiresAt: answer.expiresAt ?? null,
        issuedAt: options.now(),
        ...(answer.headers ? { headers: answer.headers } : {}),
      },
    };
  }
}
