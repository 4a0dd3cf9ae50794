// The relay's pairs of a scribe and its recording session, kept on disk so that a restarted
// computer asks GET /links only for what is new (`since`, the last id read) rather than for
// every link the relay keeps: <data dir>/relay/<hash>.json, one small file per relay address and
// organization, written atomically. A file that cannot be read is set aside in the log and the
// links are read again from the start: it only saves requests, it is never the one truth.
// Beside it, <hash>.edits.json keeps the last edit heard of each note of the other rooms
// (edits.ts), read with the same schema the relay's events are.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { relayEditSchema, type RelayEdit } from '../../../shared/relay-edits.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';

/** Far above a clinic group's months of consults; the oldest go first past it. */
export const MAX_KEPT_LINKS = 100_000;
/** Notes whose last edit heard is kept, as many as the relay keeps; the oldest go first past it. */
export const MAX_KEPT_EDITS = 20_000;

const id = z.string().min(1).max(200);

const fileSchema = z.object({
  version: z.literal(1),
  address: z.string(),
  organization: z.string(),
  since: z.number().int().nonnegative(),
  /** [scribe, recording session], oldest first. */
  pairs: z.array(z.tuple([id, id])).max(MAX_KEPT_LINKS),
});

const editsFileSchema = z.object({
  version: z.literal(1),
  address: z.string(),
  organization: z.string(),
  /** Oldest first. */
  edits: z.array(relayEditSchema).max(MAX_KEPT_EDITS),
});

export interface KeptLinks {
  since: number;
  pairs: [string, string][];
}

export class RelayLinksFiles {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private path(address: string, organization: string, suffix = '.json'): string {
    const name = createHash('sha256').update(`${address}\u0000${organization}`).digest('hex').slice(0, 32);
    return join(this.dir, `${name}${suffix}`);
  }

  /** The edits heard from the relay at `address` for `organization`; null when none (or none usable) were kept. */
  async readEdits(address: string, organization: string): Promise<RelayEdit[] | null> {
    const parsed = editsFileSchema.safeParse(await readJson(this.path(address, organization, '.edits.json')));
    if (!parsed.success) return null;
    if (parsed.data.address !== address || parsed.data.organization !== organization) return null;
    return parsed.data.edits;
  }

  async writeEdits(address: string, organization: string, edits: RelayEdit[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeJsonAtomic(this.path(address, organization, '.edits.json'), {
      version: 1,
      address,
      organization,
      edits,
    });
  }

  /** What was kept for the relay at `address` and `organization`; null when nothing (or nothing usable) was. */
  async read(address: string, organization: string): Promise<KeptLinks | null> {
    const parsed = fileSchema.safeParse(await readJson(this.path(address, organization)));
    if (!parsed.success) return null;
    // The name is a hash: the file says whose it is, and only that one's is used.
    if (parsed.data.address !== address || parsed.data.organization !== organization) return null;
    return { since: parsed.data.since, pairs: parsed.data.pairs };
  }

  async write(address: string, organization: string, kept: KeptLinks): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeJsonAtomic(this.path(address, organization), { version: 1, address, organization, ...kept });
  }
}
