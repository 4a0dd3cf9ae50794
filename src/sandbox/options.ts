// The sandbox's options, from flags or environment variables (flag wins), with the defaults
// a demo wants. Every number is checked, so a typo stops the sandbox with a clear message.
import { parseArgs } from 'node:util';
import { sandboxSecretProblem } from './keys.ts';
import { NOTE_FAULTS, type NoteFault } from './provet/index.ts';

export interface SandboxOptions {
  /** 0 = a free port. */
  port: number;
  host: string;
  /** State and uploads survive a restart here; null = in memory and a temporary folder. */
  dataDir: string | null;
  accessTtlSeconds: number;
  refreshTtlSeconds: number;
  /** How long the refresh token rotated away last is still answered (a lost answer). */
  refreshReuseGraceSeconds: number;
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  /** Processing time of a scribe job. */
  scribeSeconds: number;
  /** Multiplies webhook retry delays (0.001 turns 1 min into 60 ms). */
  timeScale: number;
  /** Share of requests answered 503. */
  failRate: number;
  latencyMs: number;
  /** Share of connections cut in the middle of the answer. */
  dropRate: number;
  /** Requests a minute per client before 429; 0 = no limit. */
  rateLimitPerMinute: number;
  webhookUrl: string | null;
  webhookSecret: string | null;
  /** Seed of the fault-injection dice, for runs that repeat exactly. */
  seed: number | null;
  /** Appends every token issued to this file, so a test can prove no log line holds one. */
  tokenLog: string | null;
  /** Scribe jobs stay at `scribing` and never finish (a note that is late, for the app's tests). */
  scribeStall: boolean;
  /** /auth/login answers only the OpenAPI's three token fields (no expiry, no user). */
  loginTokensOnly: boolean;
  /** The refresh answers only the OpenAPI's three token fields (no expiry, no user). */
  refreshTokensOnly: boolean;
  /**
   * A connection on which no byte moves for this long is closed: a body sent a byte a minute
   * cannot hold it for ever, while a long upload that keeps flowing is never cut.
   */
  idleTimeoutMs: number;
  /**
   * The secret its keys come from (keys.ts: 32 bytes or more, base64), held in memory only:
   * SANDBOX_SECRET_KEY, never a flag (a command line is seen by every user of the computer).
   * null = one made up for this run, so sign-ins and upload addresses last the run.
   */
  secretKey: string | null;
  /**
   * A fault of GET /scribe/all and GET /recording-sessions/all, for the app's tests: 'empty-page'
   * (page 2 on is empty yet says has_next), 'repeat' (each page repeats the last item of the one
   * before), 'thousands' (5,000 more items of the organization), 'fail' (every list answers 503).
   */
  listFault: ListFault;
  /** Lifetime of the Provet double's access tokens (Provet publishes 10 hours). */
  provetAccessTtlSeconds: number;
  /** How long the Provet double's refresh token lasts unused (Provet publishes 30 days). */
  provetRefreshTtlSeconds: number;
  /** Every Provet endpoint's budget a minute; null = each endpoint's own; 0 = no limit. */
  provetRateLimit: number | null;
  /**
   * A fault of the Provet double's clinical-note writes, for the app's tests: 'refuse-body' (400
   * with field errors), 'drop-after-write' (the note is written, the connection cut), 'forbidden'
   * (403, a permission the vet lacks).
   */
  provetNoteFault: NoteFault;
}

export const LIST_FAULTS = ['none', 'empty-page', 'repeat', 'thousands', 'fail'] as const;
export type ListFault = (typeof LIST_FAULTS)[number];

export const DEFAULT_OPTIONS: SandboxOptions = {
  port: 0,
  host: '127.0.0.1',
  dataDir: null,
  // Access tokens last an hour, as published; the refresh token's lifetime is not published.
  accessTtlSeconds: 3600,
  refreshTtlSeconds: 7 * 24 * 3600,
  refreshReuseGraceSeconds: 30,
  uploadTtlSeconds: 900,
  maxUploadBytes: 2 * 1024 ** 3,
  scribeSeconds: 8,
  timeScale: 1,
  failRate: 0,
  latencyMs: 0,
  dropRate: 0,
  rateLimitPerMinute: 1200,
  webhookUrl: null,
  webhookSecret: null,
  seed: null,
  tokenLog: null,
  scribeStall: false,
  loginTokensOnly: false,
  refreshTokensOnly: false,
  idleTimeoutMs: 60_000,
  secretKey: null,
  listFault: 'none',
  provetAccessTtlSeconds: 10 * 3600,
  provetRefreshTtlSeconds: 30 * 24 * 3600,
  provetRateLimit: null,
  provetNoteFault: 'none',
};

type NumberKey = { [K in keyof SandboxOptions]: SandboxOptions[K] extends number ? K : never }[keyof SandboxOptions];

const NUMBERS: {
  flag: string;
  env: string;
  key: NumberKey | 'seed' | 'provetRateLimit';
  min: number;
  max: number;
  integer?: boolean;
}[] = [
  { flag: 'port', env: 'SANDBOX_PORT', key: 'port', min: 0, max: 65535, integer: true },
  {
    flag: 'idle-timeout-ms',
    env: 'SANDBOX_IDLE_TIMEOUT_MS',
    key: 'idleTimeoutMs',
    min: 100,
    max: 3_600_000,
    integer: true,
  },
  { flag: 'access-ttl', env: 'SANDBOX_ACCESS_TTL', key: 'accessTtlSeconds', min: 1, max: 365 * 24 * 3600 },
  { flag: 'refresh-ttl', env: 'SANDBOX_REFRESH_TTL', key: 'refreshTtlSeconds', min: 1, max: 10 * 365 * 24 * 3600 },
  {
    flag: 'refresh-reuse-grace',
    env: 'SANDBOX_REFRESH_REUSE_GRACE',
    key: 'refreshReuseGraceSeconds',
    min: 0,
    max: 3600,
  },
  { flag: 'upload-ttl', env: 'SANDBOX_UPLOAD_TTL', key: 'uploadTtlSeconds', min: 1, max: 7 * 24 * 3600 },
  {
    flag: 'max-upload-bytes',
    env: 'SANDBOX_MAX_UPLOAD_BYTES',
    key: 'maxUploadBytes',
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    integer: true,
  },
  { flag: 'scribe-seconds', env: 'SANDBOX_SCRIBE_SECONDS', key: 'scribeSeconds', min: 0, max: 24 * 3600 },
  { flag: 'time-scale', env: 'SANDBOX_TIME_SCALE', key: 'timeScale', min: 0, max: 1000 },
  { flag: 'fail-rate', env: 'SANDBOX_FAIL_RATE', key: 'failRate', min: 0, max: 1 },
  { flag: 'latency-ms', env: 'SANDBOX_LATENCY_MS', key: 'latencyMs', min: 0, max: 120_000 },
  { flag: 'drop-rate', env: 'SANDBOX_DROP_RATE', key: 'dropRate', min: 0, max: 1 },
  { flag: 'rate-limit', env: 'SANDBOX_RATE_LIMIT', key: 'rateLimitPerMinute', min: 0, max: 1_000_000, integer: true },
  { flag: 'seed', env: 'SANDBOX_SEED', key: 'seed', min: 0, max: 2 ** 32 - 1, integer: true },
  {
    flag: 'provet-access-ttl',
    env: 'SANDBOX_PROVET_ACCESS_TTL',
    key: 'provetAccessTtlSeconds',
    min: 1,
    max: 365 * 24 * 3600,
  },
  {
    flag: 'provet-refresh-ttl',
    env: 'SANDBOX_PROVET_REFRESH_TTL',
    key: 'provetRefreshTtlSeconds',
    min: 1,
    max: 10 * 365 * 24 * 3600,
  },
  {
    flag: 'provet-rate-limit',
    env: 'SANDBOX_PROVET_RATE_LIMIT',
    key: 'provetRateLimit',
    min: 0,
    max: 1_000_000,
    integer: true,
  },
];

const STRINGS: { flag: string; env: string; key: 'host' | 'dataDir' | 'webhookUrl' | 'webhookSecret' | 'tokenLog' }[] =
  [
    { flag: 'token-log', env: 'SANDBOX_TOKEN_LOG', key: 'tokenLog' },
    { flag: 'host', env: 'SANDBOX_HOST', key: 'host' },
    { flag: 'data-dir', env: 'SANDBOX_DATA_DIR', key: 'dataDir' },
    { flag: 'webhook-url', env: 'SANDBOX_WEBHOOK_URL', key: 'webhookUrl' },
    { flag: 'webhook-secret', env: 'SANDBOX_WEBHOOK_SECRET', key: 'webhookSecret' },
  ];

const BOOLEANS: { flag: string; env: string; key: 'scribeStall' | 'loginTokensOnly' | 'refreshTokensOnly' }[] = [
  { flag: 'scribe-stall', env: 'SANDBOX_SCRIBE_STALL', key: 'scribeStall' },
  { flag: 'login-tokens-only', env: 'SANDBOX_LOGIN_TOKENS_ONLY', key: 'loginTokensOnly' },
  { flag: 'refresh-tokens-only', env: 'SANDBOX_REFRESH_TOKENS_ONLY', key: 'refreshTokensOnly' },
];

export class OptionsError extends Error {}

export function parseOptions(argv: string[], env: Record<string, string | undefined> = {}): SandboxOptions {
  const flags: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const { flag } of [...NUMBERS, ...STRINGS]) flags[flag] = { type: 'string' };
  for (const { flag } of BOOLEANS) flags[flag] = { type: 'boolean' };
  flags['list-fault'] = { type: 'string' };
  flags['provet-note-fault'] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: flags, strict: true, allowPositionals: false }) as {
      values: Record<string, string | undefined>;
    });
  } catch (e) {
    throw new OptionsError((e as Error).message);
  }
  const options: SandboxOptions = { ...DEFAULT_OPTIONS };
  for (const spec of NUMBERS) {
    const raw = (values[spec.flag] as string | undefined) ?? env[spec.env];
    if (raw === undefined || raw === '') continue;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < spec.min || n > spec.max || (spec.integer && !Number.isInteger(n))) {
      throw new OptionsError(
        `--${spec.flag} (${spec.env}) must be ${spec.integer ? 'a whole number' : 'a number'} from ${spec.min} to ${spec.max}, not "${raw}".`,
      );
    }
    (options as unknown as Record<string, number>)[spec.key] = n;
  }
  for (const spec of STRINGS) {
    const raw = (values[spec.flag] as string | undefined) ?? env[spec.env];
    if (raw === undefined || raw === '') continue;
    options[spec.key] = raw;
  }
  for (const spec of BOOLEANS) {
    const flag = values[spec.flag];
    const raw = env[spec.env];
    if (flag === true) options[spec.key] = true;
    else if (raw !== undefined && raw !== '') {
      if (!/^(1|0|true|false)$/i.test(raw))
        throw new OptionsError(`${spec.env} must be 1, 0, true or false, not "${raw}".`);
      options[spec.key] = /^(1|true)$/i.test(raw);
    }
  }
  const listFault = (values['list-fault'] as string | undefined) ?? env['SANDBOX_LIST_FAULT'];
  if (listFault !== undefined && listFault !== '') {
    if (!(LIST_FAULTS as readonly string[]).includes(listFault))
      throw new OptionsError(
        `--list-fault (SANDBOX_LIST_FAULT) must be one of ${LIST_FAULTS.join(', ')}, not "${listFault}".`,
      );
    options.listFault = listFault as ListFault;
  }
  const noteFault = (values['provet-note-fault'] as string | undefined) ?? env['SANDBOX_PROVET_NOTE_FAULT'];
  if (noteFault !== undefined && noteFault !== '') {
    if (!(NOTE_FAULTS as readonly string[]).includes(noteFault))
      throw new OptionsError(
        `--provet-note-fault (SANDBOX_PROVET_NOTE_FAULT) must be one of ${NOTE_FAULTS.join(', ')}, not "${noteFault}".`,
      );
    options.provetNoteFault = noteFault as NoteFault;
  }
  const secretKey = env['SANDBOX_SECRET_KEY'];
  if (secretKey !== undefined && secretKey !== '') {
    const problem = sandboxSecretProblem(secretKey.trim());
    if (problem) throw new OptionsError(`SANDBOX_SECRET_KEY ${problem}.`);
    options.secretKey = secretKey.trim();
  }
  if (options.webhookUrl !== null) {
    let url: URL;
    try {
      url = new URL(options.webhookUrl);
    } catch {
      throw new OptionsError(`--webhook-url must be an http(s) URL, not "${options.webhookUrl}".`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new OptionsError(`--webhook-url must be an http(s) URL, not "${options.webhookUrl}".`);
    }
  }
  return options;
}
