// The sandbox's state: one JSON document, kept in memory and, when a data folder is given,
// written atomically (temp file, fsync, rename) after every change so a restart resumes it.
// The file holds no key and no live token (keys.ts): the webhook secrets clinics register are
// sealed in it, and the refresh answers kept for a replay stay in memory (auth.ts).
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { withNamesNow } from '../shared/renamed.ts';
import type { OrganizationWire, WebhookWire } from '../shared/service/wire.ts';
import type { SandboxKeys } from './keys.ts';

export interface UserRecord {
  id: string;
  email: string;
  name: string;
  organization_id: string;
  password_hash: string;
}

/** Organizations and webhooks are kept exactly as the service shows them (src/shared/service/wire.ts). */
export type OrganizationRecord = OrganizationWire;
/**
 * A webhook 2.5, with the endpoint and secret `PUT /webhook/update` registered (null until then).
 * The secret is in memory as given; the file has it sealed (`auth_token_sealed`).
 */
export type WebhookRecord = WebhookWire & { webhook_url?: string | null; auth_token?: string | null };

export interface RefreshFamily {
  user_id: string;
  current_jti: string;
  /** The token rotated away last, honoured again within the reuse grace (a lost answer). */
  previous_jti: string | null;
  rotated_at: number;
  revoked: boolean;
}

export interface RecordingSessionRecord {
  public_id: string;
  patient_name: string;
  description: string;
  session_date: string;
  created_at: string;
  updated_at: string;
  organization_id: string;
  user_id: string;
  /** The file of the recording session's last upload: what a scribe request of it scribes. */
  last_upload_key: string | null;
}

export interface UploadRecord {
  file_key: string;
  recording_session_public_id: string;
  created_at: string;
  /** As the PUT declared it (none when sent as `curl -T` sends it). */
  content_type: string | null;
  /** Scribing starts by itself after the upload with this template (`POST /audio/generate-upload-url`'s optional field). */
  auto_scribe_template_public_id: string | null;
  uploaded: { size: number; sha256: string; at: string } | null;
}

export interface ScribeRecord {
  public_id: string;
  recording_session_public_id: string;
  template_public_id: string;
  file_key: string;
  organization_id: string;
  idempotency_key: string | null;
  created_at: string;
  /** Epoch ms at which processing starts and ends; the status is derived from the clock. */
  processing_at: number;
  finish_at: number;
  outcome: 'scribed' | 'failed';
  /** The note as `categories_output` writes it; null until decided or when it failed. */
  categories: { category: string; content: string }[] | null;
  error: string | null;
  /** The statuses whose webhook event has been queued (requested, scribing, scribed). */
  announced: string[];
}

export interface DeliveryRecord {
  id: string;
  event_id: string;
  webhook_public_id: string;
  body: string;
  /** 0 = first attempt; 1..5 = retries. */
  attempt: number;
  next_at: number;
  state: 'pending' | 'delivered' | 'given_up';
  last_status: number | null;
}

export interface SandboxState {
  version: 1;
  users: UserRecord[];
  organizations: OrganizationRecord[];
  webhooks: WebhookRecord[];
  refresh_families: Record<string, RefreshFamily>;
  recording_sessions: Record<string, RecordingSessionRecord>;
  uploads: Record<string, UploadRecord>;
  scribes: Record<string, ScribeRecord>;
  deliveries: DeliveryRecord[];
}

// sandbox-state.json as it is read back: its version and the frame of each collection. The
// records inside are the sandbox's own writing, kept as they are (members added later are
// filled in where they are used), so they are checked only for being objects; a file cut short
// or of another program is refused with what is wrong, and the sandbox starts afresh in memory.
const record = z.looseObject({});
/** Collections an earlier version saved under another name: old name -> name now. */
const STATE_RENAMED = { sessions: 'recording_sessions' } as const;
const stateFileSchema = z.looseObject({
  version: z.literal(1, { error: (i) => `unknown sandbox state version ${String(i.input)}` }),
  users: z.array(record),
  organizations: z.array(record),
  webhooks: z.array(record).default([]),
  refresh_families: z.record(z.string(), record).default({}),
  recording_sessions: z.record(z.string(), record).default({}),
  uploads: z.record(z.string(), record).default({}),
  scribes: z.record(z.string(), record).default({}),
  deliveries: z.array(record).default([]),
});

export const DEMO_ACCOUNT = { email: 'demo@vetscribe.test', password: 'sandbox-demo' } as const;
/** A second clinic, so the sandbox can show that one organization cannot touch another's settings. */
export const OTHER_ACCOUNT = { email: 'other@vetscribe.test', password: 'sandbox-other' } as const;
/** A second vet of the demo clinic: two vets sharing one exam-room PC. */
export const COLLEAGUE_ACCOUNT = { email: 'colleague@vetscribe.test', password: 'sandbox-colleague' } as const;

export function hashPassword(password: string, salt = randomBytes(16).toString('hex')): string {
  return `${salt}:${scryptSync(password, salt, 32).toString('hex')}`;
}

function seed(): SandboxState {
  const demoOrg = randomUUID();
  const otherOrg = randomUUID();
  const org = (public_id: string, name: string): OrganizationRecord => ({
    public_id,
    name,
    description: 'Sandbox organization',
    has_slack_bot_token: false,
    slack_channel: null,
    email_notification: null,
    is_active: true,
  });
  return {
    version: 1,
    users: [
      {
        id: randomUUID(),
        email: DEMO_ACCOUNT.email,
        name: 'Dr. Demo Vet',
        organization_id: demoOrg,
        password_hash: hashPassword(DEMO_ACCOUNT.password),
      },
      {
        id: randomUUID(),
        email: OTHER_ACCOUNT.email,
        name: 'Dr. Other Vet',
        organization_id: otherOrg,
        password_hash: hashPassword(OTHER_ACCOUNT.password),
      },
      {
        id: randomUUID(),
        email: COLLEAGUE_ACCOUNT.email,
        name: 'Dr. Colleague Vet',
        organization_id: demoOrg,
        password_hash: hashPassword(COLLEAGUE_ACCOUNT.password),
      },
    ],
    organizations: [org(demoOrg, 'Sandbox Veterinary Clinic'), org(otherOrg, 'Other Sandbox Clinic')],
    webhooks: [demoOrg, otherOrg].map((organization_public_id) => ({
      public_id: randomUUID(),
      event_type: 'scribe',
      is_active: false,
      organization_public_id,
    })),
    refresh_families: {},
    recording_sessions: {},
    uploads: {},
    scribes: {},
    deliveries: [],
  };
}

export class StateStore {
  readonly state: SandboxState;
  /** True when this store started empty (no saved state to resume). */
  readonly created: boolean;
  private file: string | null;
  /**
   * Why the state could not be saved (a full or read-only disk, a folder that cannot be made),
   * once; the sandbox then goes on in memory. Never thrown: a stand-in service must not take
   * down the app it runs in.
   */
  saveProblem: string | null = null;

  private readonly keys: SandboxKeys;
  /** Registered webhook secrets in the file that this run's key cannot open (another secret). */
  unopenedSecrets = 0;

  constructor(dataDir: string | null, keys: SandboxKeys) {
    this.keys = keys;
    this.file = dataDir ? join(dataDir, 'sandbox-state.json') : null;
    let loaded: SandboxState | null = null;
    try {
      if (dataDir) mkdirSync(dataDir, { recursive: true });
      loaded = this.load();
    } catch (e) {
      this.saveProblem = `its state could not be read or kept (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
      this.file = null;
    }
    this.created = loaded === null;
    this.state = loaded ?? seed();
    this.save();
  }

  private load(): SandboxState | null {
    if (!this.file) return null;
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
    const checked = stateFileSchema.safeParse(withNamesNow(JSON.parse(text), STATE_RENAMED));
    if (!checked.success) {
      const issue = checked.error.issues[0];
      throw new Error(
        `${this.file}: ${issue?.path.join('.') || 'the file'}: ${issue?.message ?? 'not a sandbox state'}`,
      );
    }
    const parsed = checked.data as unknown as SandboxState & Record<string, unknown>;
    // Files of earlier versions held the keys and the last refresh answers: dropped here, and
    // gone from the file at the next save (the constructor's).
    delete parsed['jwt_secret'];
    delete parsed['upload_secret'];
    for (const family of Object.values(parsed.refresh_families ?? {}))
      delete (family as unknown as Record<string, unknown>)['last_answer'];
    for (const hook of parsed.webhooks ?? []) {
      const record = hook as WebhookRecord & { auth_token_sealed?: string | null };
      if (typeof record.auth_token_sealed === 'string') {
        record.auth_token = this.keys.open(record.auth_token_sealed);
        if (record.auth_token === null) this.unopenedSecrets += 1;
      }
      delete record.auth_token_sealed;
    }
    return parsed;
  }

  /** The state as the file holds it: each webhook secret sealed. */
  private serialized(): string {
    const webhooks = this.state.webhooks.map(({ auth_token, ...hook }) => ({
      ...hook,
      auth_token_sealed: auth_token ? this.keys.seal(auth_token) : null,
    }));
    return JSON.stringify({ ...this.state, webhooks });
  }

  save(): void {
    if (!this.file) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      const fd = openSync(tmp, 'w', 0o600);
      try {
        writeSync(fd, this.serialized());
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, this.file);
      this.saveProblem = null;
    } catch (e) {
      // The state stays in memory; the next save tries again. No half-written file is left.
      try {
        rmSync(tmp, { force: true });
      } catch {
        // The folder itself is gone or unreadable: nothing was left in it.
      }
      this.saveProblem = `its state could not be saved (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  }
}
