// The clinic's consults as last read, kept on disk per account (user, organization and
// service) so the list opens offline: <data dir>/clinic/<hash>.json, written atomically. The
// lists are kept as read, so that a consult this computer sends later is left out of them
// without asking the service again; the notes read are kept beside them.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { withNamesNow } from '../../../shared/renamed.ts';
import { readJson, writeJsonAtomic } from '../platform/index.ts';

export interface ClinicAccount {
  userId: string;
  organizationId: string;
  service: string;
}

const nullableText = z.string().nullable();

/** Members an earlier version named otherwise, in the copy and in each scribe of it: old name -> name now. */
const COPY_RENAMED = { sessions: 'recordingSessions' } as const;
const SCRIBE_RENAMED = { sessionId: 'recordingSessionId' } as const;

const copySchema = z.object({
  version: z.literal(1),
  account: z.object({ userId: z.string(), organizationId: z.string(), service: z.string() }),
  refreshedAt: z.string(),
  truncated: z.boolean(),
  scribes: z.array(
    z.preprocess(
      (raw) => withNamesNow(raw, SCRIBE_RENAMED),
      z.object({
        id: z.string(),
        updatedAt: nullableText,
        templateId: nullableText,
        status: nullableText,
        recordingSessionId: nullableText,
      }),
    ),
  ),
  recordingSessions: z.array(
    z.object({ id: z.string(), updatedAt: nullableText, patientName: nullableText, description: nullableText }),
  ),
  templateNames: z.record(z.string(), z.string()),
  /** Recording sessions that GET /scribe/get named for a scribe. */
  linked: z.record(z.string(), z.string()),
  notes: z.record(
    z.string(),
    // `words`: the note as the search reads it, made once when the note is kept.
    z.object({ note: z.string(), rtf: nullableText, readAt: z.string(), words: z.string().optional() }),
  ),
});

export type ClinicCopy = z.infer<typeof copySchema>;

export function accountKey(account: ClinicAccount): string {
  return createHash('sha256')
    .update(`${account.service}\u0000${account.organizationId}\u0000${account.userId}`)
    .digest('hex')
    .slice(0, 32);
}

export class ClinicCopyFiles {
  private readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  private path(account: ClinicAccount): string {
    return join(this.dir, `${accountKey(account)}.json`);
  }

  /**
   * The copy of this account, or null when there is none. A copy that cannot be read (or is
   * another account's, which a hash collision alone could give) counts as none: it is only a
   * copy of what the service holds, read again at the next refresh.
   */
  async read(account: ClinicAccount): Promise<ClinicCopy | null> {
    let raw: unknown;
    try {
      raw = await readJson(this.path(account));
    } catch {
      return null;
    }
    const parsed = copySchema.safeParse(withNamesNow(raw, COPY_RENAMED));
    if (!parsed.success) return null;
    const a = parsed.data.account;
    const same =
      a.userId === account.userId && a.organizationId === account.organizationId && a.service === account.service;
    return same ? parsed.data : null;
  }

  async write(copy: ClinicCopy): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeJsonAtomic(this.path(copy.account), copy);
  }
}
