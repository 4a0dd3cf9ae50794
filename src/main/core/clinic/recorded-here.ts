// What this computer recorded, as the service knows it: the ids of every consult this computer
// ever had (kept on disk, so one deleted here, by the vet or by its organization's retention, stays
// deleted here rather than coming back as recorded elsewhere), every recording session asked for
// here (jobs/recording-session-asks.ts) and the recording session each was found to have made, so one whose answer
// was lost is taken as this computer's too, at the next refresh that lists it. One file,
// `<data>/clinic/recorded-here.json`, written atomically, each write after the one before.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { RecordingSessionListItem } from '../../../shared/service/lists.ts';
import { isRecord } from '../../../shared/service/envelope.ts';
import { withNamesNow } from '../../../shared/renamed.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';
import { matchAsk, recordingSessionAskSchema, type KeptAsk, type RecordingSessionAsk } from '../jobs/index.ts';
import type { ClinicAccount } from './copy-file.ts';

/** How long an ask whose recording session is not known is kept: long past any list that could still show its recording session as new. */
const ASKS_KEPT_MS = 30 * 24 * 60 * 60_000;
/**
 * How long an ask whose recording session is known is kept (its recording session stays in `recordingSessionIds` for good):
 * long enough for its consult's job, after a restart, to take a recording session made while recording.
 */
const MADE_KEPT_MS = 2 * 24 * 60 * 60_000;

/** An ask of this computer as kept, with the recording session it was found to have made. */
const keptAskSchema = z.preprocess(
  (raw) => withNamesNow(raw, { sessionId: 'recordingSessionId', sessionDate: 'recordingSessionDate' }),
  recordingSessionAskSchema.extend({ recordingSessionId: z.string().nullable() }),
);
/** The file's members an earlier version named otherwise: old name -> name now. */
const HERE_RENAMED = { sessionIds: 'recordingSessionIds' } as const;

type Ids = { recordingSessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> };

export class RecordedHere {
  private readonly dataDir: string;
  private here: { recordingSessionIds: Set<string>; scribeIds: Set<string>; asks: Map<string, KeptAsk> } | null = null;
  private hereWrite: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  async load() {
    if (this.here) return this.here;
    const raw = withNamesNow(await readJson(this.hereFile()).catch(() => null), HERE_RENAMED);
    const ids = (key: string) =>
      new Set(
        isRecord(raw) && Array.isArray(raw[key]) ? raw[key].filter((x): x is string => typeof x === 'string') : [],
      );
    const asks = new Map<string, KeptAsk>();
    for (const item of isRecord(raw) && Array.isArray(raw['asks']) ? raw['asks'] : []) {
      const ask = keptAskSchema.safeParse(item);
      if (ask.success) asks.set(ask.data.id, ask.data);
    }
    this.here ??= { recordingSessionIds: ids('recordingSessionIds'), scribeIds: ids('scribeIds'), asks };
    return this.here;
  }

  private hereFile(): string {
    return join(this.dataDir, 'clinic', 'recorded-here.json');
  }

  /** Writes what this computer recorded, each write after the one before; asks past their keeping are let go. */
  private writeHere(): Promise<void> {
    const here = this.here;
    if (!here) return Promise.resolve();
    const write = async () => {
      const now = Date.now();
      for (const [id, ask] of here.asks)
        if (ask.askedAt < now - (ask.recordingSessionId === null ? ASKS_KEPT_MS : MADE_KEPT_MS)) here.asks.delete(id);
      await mkdir(join(this.dataDir, 'clinic'), { recursive: true, mode: 0o700 });
      await writeJsonAtomic(this.hereFile(), {
        recordingSessionIds: [...here.recordingSessionIds],
        scribeIds: [...here.scribeIds],
        asks: [...here.asks.values()],
      });
    };
    const next = this.hereWrite.catch(() => undefined).then(write);
    this.hereWrite = next;
    return next;
  }

  /** A consult of this computer got its ids from the service: they are never listed as from elsewhere. */
  async add(ids: { recordingSessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> }): Promise<void> {
    const here = await this.load();
    const before = here.recordingSessionIds.size + here.scribeIds.size;
    for (const id of ids.recordingSessionIds) here.recordingSessionIds.add(id);
    for (const id of ids.scribeIds) here.scribeIds.add(id);
    if (here.recordingSessionIds.size + here.scribeIds.size === before) return;
    await this.writeHere();
  }

  /** A recording session is about to be asked for here: noted on disk first (it throws when it cannot be). */
  async asked(ask: RecordingSessionAsk): Promise<void> {
    const here = await this.load();
    here.asks.set(ask.id, { ...ask, recordingSessionId: null });
    await this.writeHere();
  }

  /** The recording session an ask made (its answer, or found in the list): this computer's for good. */
  async made(askId: string | null, recordingSessionId: string): Promise<void> {
    const here = await this.load();
    here.recordingSessionIds.add(recordingSessionId);
    const ask = askId === null ? undefined : here.asks.get(askId);
    if (ask) ask.recordingSessionId = recordingSessionId;
    await this.writeHere();
  }

  /** The service refused an ask: it made nothing, so nothing is looked for. */
  async refused(askId: string): Promise<void> {
    const here = await this.load();
    if (here.asks.delete(askId)) await this.writeHere();
  }

  /** The recording sessions made or taken here, and every ask kept. */
  async known(): Promise<{ recordingSessionIds: ReadonlySet<string>; asks: readonly KeptAsk[] }> {
    const here = await this.load();
    return { recordingSessionIds: here.recordingSessionIds, asks: [...here.asks.values()] };
  }

  /**
   * The recording sessions of the account's organization that asks of this computer made, found in the
   * list as read (their answers were lost: a delete, a quit, a dropped connection): taken as
   * this computer's, so none is listed as a visit recorded elsewhere.
   */
  async adoptAsked(
    account: ClinicAccount,
    recordingSessions: readonly RecordingSessionListItem[],
    local: Ids,
  ): Promise<void> {
    const here = await this.load();
    const known = this.withLocal(local).recordingSessionIds;
    let found = 0;
    for (const ask of here.asks.values()) {
      if (ask.recordingSessionId !== null || ask.service !== account.service) continue;
      if (ask.organizationId !== null && ask.organizationId !== account.organizationId) continue;
      const match = matchAsk(ask, recordingSessions, known);
      if (!match) continue;
      ask.recordingSessionId = match.id;
      here.recordingSessionIds.add(match.id);
      known.add(match.id);
      found += 1;
    }
    if (found > 0) await this.writeHere();
  }

  /** This computer's consults now (`now`, from its jobs) with every one it ever had. */
  withLocal(now: Ids): { recordingSessionIds: Set<string>; scribeIds: Set<string> } {
    const here = this.here ?? { recordingSessionIds: new Set<string>(), scribeIds: new Set<string>() };
    return {
      recordingSessionIds: new Set([...now.recordingSessionIds, ...here.recordingSessionIds]),
      scribeIds: new Set([...now.scribeIds, ...here.scribeIds]),
    };
  }
}
