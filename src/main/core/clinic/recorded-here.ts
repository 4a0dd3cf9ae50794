// What this computer recorded, as the service knows it: the ids of every consult this computer
// ever had (kept on disk, so one deleted here, by the vet or by the clinic's retention, stays
// deleted here rather than coming back as recorded elsewhere), every recording session asked for
// here (jobs/session-asks.ts) and the session each was found to have made, so one whose answer
// was lost is taken as this computer's too, at the next refresh that lists it. One file,
// `<data>/clinic/recorded-here.json`, written atomically, each write after the one before.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { SessionListItem } from '../../../shared/service/lists.ts';
import { isRecord } from '../../../shared/service/envelope.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';
import { matchAsk, sessionAskSchema, type KeptAsk, type SessionAsk } from '../jobs/index.ts';
import type { ClinicAccount } from './copy-file.ts';

/** How long an ask whose session is not known is kept: long past any list that could still show its session as new. */
const ASKS_KEPT_MS = 30 * 24 * 60 * 60_000;
/**
 * How long an ask whose session is known is kept (its session stays in `sessionIds` for good):
 * long enough for its consult's job, after a restart, to take a session made while recording.
 */
const MADE_KEPT_MS = 2 * 24 * 60 * 60_000;

/** An ask of this computer as kept, with the session it was found to have made. */
const keptAskSchema = sessionAskSchema.extend({ sessionId: z.string().nullable() });

type Ids = { sessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> };

export class RecordedHere {
  private readonly dataDir: string;
  private here: { sessionIds: Set<string>; scribeIds: Set<string>; asks: Map<string, KeptAsk> } | null = null;
  private hereWrite: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.dataDir = dataDir;
  }

  async load() {
    if (this.here) return this.here;
    const raw = await readJson(this.hereFile()).catch(() => null);
    const ids = (key: string) =>
      new Set(
        isRecord(raw) && Array.isArray(raw[key]) ? raw[key].filter((x): x is string => typeof x === 'string') : [],
      );
    const asks = new Map<string, KeptAsk>();
    for (const item of isRecord(raw) && Array.isArray(raw['asks']) ? raw['asks'] : []) {
      const ask = keptAskSchema.safeParse(item);
      if (ask.success) asks.set(ask.data.id, ask.data);
    }
    this.here ??= { sessionIds: ids('sessionIds'), scribeIds: ids('scribeIds'), asks };
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
        if (ask.askedAt < now - (ask.sessionId === null ? ASKS_KEPT_MS : MADE_KEPT_MS)) here.asks.delete(id);
      await mkdir(join(this.dataDir, 'clinic'), { recursive: true, mode: 0o700 });
      await writeJsonAtomic(this.hereFile(), {
        sessionIds: [...here.sessionIds],
        scribeIds: [...here.scribeIds],
        asks: [...here.asks.values()],
      });
    };
    const next = this.hereWrite.catch(() => undefined).then(write);
    this.hereWrite = next;
    return next;
  }

  /** A consult of this computer got its ids from the service: they are never listed as from elsewhere. */
  async add(ids: { sessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> }): Promise<void> {
    const here = await this.load();
    const before = here.sessionIds.size + here.scribeIds.size;
    for (const id of ids.sessionIds) here.sessionIds.add(id);
    for (const id of ids.scribeIds) here.scribeIds.add(id);
    if (here.sessionIds.size + here.scribeIds.size === before) return;
    await this.writeHere();
  }

  /** A recording session is about to be asked for here: noted on disk first (it throws when it cannot be). */
  async asked(ask: SessionAsk): Promise<void> {
    const here = await this.load();
    here.asks.set(ask.id, { ...ask, sessionId: null });
    await this.writeHere();
  }

  /** The session an ask made (its answer, or found in the list): this computer's for good. */
  async made(askId: string | null, sessionId: string): Promise<void> {
    const here = await this.load();
    here.sessionIds.add(sessionId);
    const ask = askId === null ? undefined : here.asks.get(askId);
    if (ask) ask.sessionId = sessionId;
    await this.writeHere();
  }

  /** The service refused an ask: it made nothing, so nothing is looked for. */
  async refused(askId: string): Promise<void> {
    const here = await this.load();
    if (here.asks.delete(askId)) await this.writeHere();
  }

  /** The sessions made or taken here, and every ask kept. */
  async known(): Promise<{ sessionIds: ReadonlySet<string>; asks: readonly KeptAsk[] }> {
    const here = await this.load();
    return { sessionIds: here.sessionIds, asks: [...here.asks.values()] };
  }

  /**
   * The sessions of the account's organization that asks of this computer made, found in the
   * list as read (their answers were lost: a delete, a quit, a dropped connection): taken as
   * this computer's, so none is listed as a visit recorded elsewhere.
   */
  async adoptAsked(account: ClinicAccount, sessions: readonly SessionListItem[], local: Ids): Promise<void> {
    const here = await this.load();
    const known = this.withLocal(local).sessionIds;
    let found = 0;
    for (const ask of here.asks.values()) {
      if (ask.sessionId !== null || ask.service !== account.service) continue;
      if (ask.organizationId !== null && ask.organizationId !== account.organizationId) continue;
      const match = matchAsk(ask, sessions, known);
      if (!match) continue;
      ask.sessionId = match.id;
      here.sessionIds.add(match.id);
      known.add(match.id);
      found += 1;
    }
    if (found > 0) await this.writeHere();
  }

  /** This computer's consults now (`now`, from its jobs) with every one it ever had. */
  withLocal(now: Ids): { sessionIds: Set<string>; scribeIds: Set<string> } {
    const here = this.here ?? { sessionIds: new Set<string>(), scribeIds: new Set<string>() };
    return {
      sessionIds: new Set([...now.sessionIds, ...here.sessionIds]),
      scribeIds: new Set([...now.scribeIds, ...here.scribeIds]),
    };
  }
}
