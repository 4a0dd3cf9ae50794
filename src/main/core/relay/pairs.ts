// The pairs of a scribe and its recording session the relay has named (its events as they come,
// its GET /links for what this computer missed), for one relay address and organization at a
// time. What GET /links answered is kept on disk (links-file.ts) with the last id read, so a
// restarted computer asks only for what is new, not for every link the relay keeps.
import type { RelayLink } from './messages.ts';
import { MAX_KEPT_LINKS, type RelayLinksFiles } from './links-file.ts';

/** One GET /links?since= of the relay. */
export type ReadLinks = (since: number) => Promise<{ links: RelayLink[]; lastId: number }>;

/** At most this many answers of GET /links in one read: the relay's cap per answer times this is far above a clinic's day. */
const MAX_PAGES = 10;

export class RelayPairs {
  private readonly files: RelayLinksFiles | null;
  private readonly log: (line: string) => void;
  /** Each scribe's recording session, oldest first; for the relay and organization at `of`. */
  private readonly linked = new Map<string, string>();
  private of: string | null = null;
  /** The last id GET /links answered up to. */
  private since = 0;
  /** The pairs kept on disk for `of`, read in once. */
  private loaded: Promise<void> = Promise.resolve();

  constructor(options: { files: RelayLinksFiles | null; log?: (line: string) => void }) {
    this.files = options.files;
    this.log = options.log ?? (() => undefined);
  }

  /** A pair an event of the relay named. */
  heard(address: string, organization: string, scribeId: string, recordingSessionId: string): void {
    this.pairsFor(address, organization);
    this.link(scribeId, recordingSessionId);
  }

  /**
   * The pairs brought up to date with GET /links (`read`) and kept on disk. A relay out of reach
   * leaves what is known.
   */
  async read(address: string, organization: string, read: ReadLinks): Promise<ReadonlyMap<string, string>> {
    const key = this.pairsFor(address, organization);
    await this.loaded;
    let changed = false;
    try {
      let startedAgain = false;
      for (let page = 0; page < MAX_PAGES && this.of === key; page++) {
        const since = this.since;
        const { links, lastId } = await read(since);
        if (this.of !== key) break;
        if (lastId < since && !startedAgain) {
          // The relay counts from the start again (its store was wiped): what it has now is all
          // new. The pairs known stay true (the service's ids are never reused).
          startedAgain = true;
          this.since = 0;
          changed = true;
          continue;
        }
        for (const link of links) this.link(link.public_id, link.recording_session_public_id);
        if (links.length > 0 || lastId > since) changed = true;
        if (lastId > since) this.since = lastId;
        if (links.length === 0 || lastId <= since) break;
      }
    } catch (e) {
      this.log(`relay: links not read: ${(e as Error).message}`);
    }
    if (changed && this.files && this.of === key)
      await this.files
        .write(address, organization, { since: this.since, pairs: [...this.linked] })
        .catch((e: unknown) => this.log(`relay: links not kept: ${(e as Error).message}`));
    return this.linked;
  }

  /**
   * The pairs known are the relay's at `address`, for `organization`: another relay or
   * organization starts them again, from its file when one was kept.
   */
  private pairsFor(address: string, organization: string): string {
    const key = `${address}\u0000${organization}`;
    if (this.of === key) return key;
    this.of = key;
    this.linked.clear();
    this.since = 0;
    this.loaded = this.load(address, organization, key);
    return key;
  }

  private async load(address: string, organization: string, key: string): Promise<void> {
    const kept = await this.files?.read(address, organization).catch((e: unknown) => {
      this.log(`relay: the links kept could not be read (${(e as Error).message}); read from the relay again`);
      return null;
    });
    if (!kept || this.of !== key) return;
    // Pairs heard while the file was read are newer: they go after the kept ones.
    const heard = [...this.linked];
    this.linked.clear();
    for (const [scribeId, recordingSessionId] of [...kept.pairs, ...heard]) this.link(scribeId, recordingSessionId);
    this.since = Math.max(this.since, kept.since);
  }

  private link(scribeId: string, recordingSessionId: string): void {
    this.linked.delete(scribeId);
    this.linked.set(scribeId, recordingSessionId);
    // The oldest go first past a bound far above a clinic group's months of consults.
    if (this.linked.size > MAX_KEPT_LINKS) this.linked.delete(this.linked.keys().next().value as string);
  }
}
