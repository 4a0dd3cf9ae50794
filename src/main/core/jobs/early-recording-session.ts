// The recording session and its upload address, asked for while the consult is still being
// recorded, so that at Stop the job starts at the upload. The published API cannot delete a
// recording session, and every computer of the clinic lists the organization's recording sessions with their
// patients' names: one made for a recording that is then deleted stays listed for good. So it
// is asked for only once a delete has become unlikely: the patient's name has stayed the same
// for a while (`earlyRecordingSessionDelayMs`: a name being typed, or a wrong patient caught, is not sent)
// and the recording has gone on for a while (`earlyRecordingSessionAfterMs` of audio, pauses not counted:
// a recording started by mistake, or whose owner objects, is deleted in its first minute). At
// most once per recording, with the sign-in of the recording's owner only.
//
// Every create is noted before it leaves and once made (recording-session-create.ts), so none, used or not,
// is ever listed here as a visit recorded elsewhere. At Stop the job takes it only if the name,
// the description, the date, the owner and the service are still those it was made with (the
// service keeps the name given and has no way to change it); a create still on its way is handed
// to the job, which waits for its outcome in the background: Stop never waits on the network. A
// recording deleted meanwhile lets its create finish (so its recording session is noted as this
// computer's) and asks nothing more; a refusal or no network: nothing is said, and the job makes
// the recording session as it would have without this.
import { localDate, type RecordingMeta } from '../recordings/index.ts';
import type { JobsContext, EarlyRecordingSessionsPart } from './context.ts';
import type { JobRecord } from './record.ts';
import { withToken } from './sender.ts';
import { sameFields, type RecordingSessionAsk, type RecordingSessionFields } from './recording-session-asks.ts';
import { createNoted } from './recording-session-create.ts';

type Made = { recordingSessionId: string; upload: JobRecord['upload'] };

interface Entry {
  timer: ReturnType<typeof setTimeout> | null;
  controller: AbortController | null;
  /** The create as sent (noted before it left), with the owner and service it went for. */
  ask: (RecordingSessionAsk & { sender: string | null }) | null;
  making: Promise<Made | null> | null;
  made: Made | null;
  /** The recording was deleted: its create may finish, nothing more is asked. */
  dropped: boolean;
}

export class EarlyRecordingSessions implements EarlyRecordingSessionsPart {
  private readonly context: JobsContext;
  private readonly entries = new Map<string, Entry>();
  /** Creates still on their way that a job took over at Stop, by recording. */
  private readonly handed = new Map<string, Entry>();
  /** Recordings whose recording session was asked for already: at most once each. */
  private readonly asked = new Set<string>();

  constructor(context: JobsContext) {
    this.context = context;
  }

  /**
   * The recording's patient's name (or description) is set or changed while it is recorded: the
   * recording session is asked for once it has settled and enough has been recorded, unless one was asked for already.
   */
  named(recordingId: string): void {
    const { earlyRecordingSession, earlyRecordingSessionDelayMs } = this.context.options;
    if (!earlyRecordingSession || this.asked.has(recordingId)) return;
    const entry = this.entries.get(recordingId) ?? {
      timer: null,
      controller: null,
      ask: null,
      making: null,
      made: null,
      dropped: false,
    };
    this.entries.set(recordingId, entry);
    this.arm(recordingId, entry, earlyRecordingSessionDelayMs);
  }

  private arm(recordingId: string, entry: Entry, ms: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = null;
      void this.when(recordingId, entry);
    }, ms);
    entry.timer.unref?.();
  }

  /** The name has settled: asked for now if enough has been recorded, else once it has. */
  private async when(recordingId: string, entry: Entry): Promise<void> {
    const meta = await this.context.options.recordings.get(recordingId).catch(() => null);
    if (this.entries.get(recordingId) !== entry || entry.timer || entry.making) return;
    if (!meta || (meta.state !== 'recording' && meta.state !== 'paused') || !meta.patientName?.trim()) {
      this.entries.delete(recordingId);
      return;
    }
    // Chunks come every second or so: looked at again when the rest should be there.
    const rest = this.context.options.earlyRecordingSessionAfterMs - meta.durationMs;
    if (rest > 0) this.arm(recordingId, entry, Math.max(rest, 250));
    else void this.make(recordingId, entry, meta);
  }

  /**
   * For a job about to start, at once: the recording session and address made while recording when they
   * still fit the consult; the create still on its way (its ask) when it fits, whose outcome the
   * job takes over; else null (one made under details changed since is left unused).
   */
  take(meta: RecordingMeta): Made | null {
    const entry = this.entries.get(meta.id);
    if (!entry) return null;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    this.entries.delete(meta.id);
    // Still being noted (its details not known yet): handed over like one on its way.
    if (!entry.ask && entry.making && entry.controller) this.handed.set(meta.id, entry);
    const ask = entry.ask;
    if (!ask) return null;
    const fits = this.fits(ask, meta.id, {
      patientName: (meta.patientName ?? '').trim(),
      description: meta.description ?? '',
      recordingSessionDate: localDate(meta.startedAt),
    });
    if (!fits) {
      if (entry.made || entry.making) this.context.counters.earlyRecordingSessionsUnused += 1;
      return null;
    }
    if (entry.made) {
      this.context.counters.earlyRecordingSessionsUsed += 1;
      return entry.made;
    }
    // Still on its way: the job's first step waits for it, in the background.
    if (entry.making && entry.controller) this.handed.set(meta.id, entry);
    return null;
  }

  outcome(recordingId: string, fields: RecordingSessionFields): Promise<Made | null> | null {
    const entry = this.handed.get(recordingId);
    if (!entry?.making) return null;
    return entry.making.then((made) => {
      if (!made) return null;
      // The name or description changed after Stop (the consult was not sent yet): left unused.
      const used = entry.ask !== null && this.fits(entry.ask, recordingId, fields);
      if (used) this.context.counters.earlyRecordingSessionsUsed += 1;
      else this.context.counters.earlyRecordingSessionsUnused += 1;
      return used ? made : null;
    });
  }

  /** Whether a create as sent still fits the consult: its details, its owner's sign-in, the service. */
  private fits(ask: NonNullable<Entry['ask']>, recordingId: string, fields: RecordingSessionFields): boolean {
    const { sender, serviceKey } = this.context.options;
    return sameFields(ask, fields) && ask.sender === sender(recordingId) && ask.service === serviceKey();
  }

  /**
   * The recording was deleted: nothing more is asked for it. A create on its way is let finish,
   * so that the recording session it makes is noted as this computer's.
   */
  drop(recordingId: string): void {
    for (const entry of [this.entries.get(recordingId), this.handed.get(recordingId)]) {
      if (!entry) continue;
      if (entry.timer) clearTimeout(entry.timer);
      entry.timer = null;
      entry.dropped = true;
      if (entry.made) this.context.counters.earlyRecordingSessionsUnused += 1;
    }
    this.entries.delete(recordingId);
    this.handed.delete(recordingId);
  }

  /** The app stops, or the service changes: every request on its way is cancelled (its ask stays noted). */
  dropAll(): void {
    for (const entry of [...this.entries.values(), ...this.handed.values()]) entry.controller?.abort();
    for (const id of new Set([...this.entries.keys(), ...this.handed.keys()])) this.drop(id);
  }

  private make(recordingId: string, entry: Entry, meta: RecordingMeta): Promise<Made | null> {
    const controller = new AbortController();
    entry.controller = controller;
    entry.making = this.ask(recordingId, entry, meta, controller.signal)
      .catch((e: unknown) => {
        this.context.options.log?.(`pipeline: ${recordingId}: no session while recording (${(e as Error).message})`);
        return null;
      })
      .then((made) => {
        entry.controller = null;
        if (this.handed.get(recordingId) === entry) this.handed.delete(recordingId);
        // Dropped meanwhile (deleted): never used.
        if (entry.dropped) return null;
        if (!made && !entry.ask) this.entries.delete(recordingId);
        entry.made = made;
        return made;
      });
    return entry.making;
  }

  private async ask(recordingId: string, entry: Entry, meta: RecordingMeta, signal: AbortSignal): Promise<Made | null> {
    const { options, counters } = this.context;
    // At most once: asked from here on, whatever the answer.
    this.asked.add(recordingId);
    const fields = {
      patientName: meta.patientName?.trim() ?? '',
      description: meta.description ?? '',
      recordingSessionDate: localDate(meta.startedAt),
    };
    const sender = options.sender(recordingId);
    const owner = { userId: sender, organizationId: meta.owner?.organizationId ?? null };
    const recordingSessionId = await createNoted(this.context, recordingId, fields, owner, signal, (ask) => {
      entry.ask = { ...ask, sender };
    });
    counters.earlyRecordingSessions += 1;
    const made: Made = { recordingSessionId, upload: null };
    if (entry.dropped) return null;
    // The recording session is worth keeping even when its address is not given now: the job asks again.
    const answer = await withToken(this.context, { recordingId, actor: null }, signal, (t, s) =>
      options.client.uploadUrl(t, { recordingSessionId }, s),
    ).catch((e: unknown) => {
      if (signal.aborted) throw e;
      return null;
    });
    if (!answer || entry.dropped) return entry.dropped ? null : made;
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
