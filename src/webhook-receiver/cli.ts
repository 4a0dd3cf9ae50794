// `npm run webhook-receiver -- --port 8787 --secret S` (or WEBHOOK_SECRET in the environment).
// Prints one line `{"url": ...}` once listening, then one JSON line per accepted event.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { formatDuration, parseDuration } from './duration.ts';
import { quietSqliteWarning } from './quiet-sqlite-warning.ts';
import { DEFAULT_MAX_BODY_BYTES, startWebhookReceiver, type AcceptedEvent } from './receiver.ts';
import { DEFAULT_HEARTBEAT_MS, type RelayOptions } from './relay.ts';
import { DEFAULT_REMEMBER_MS, MIN_REMEMBER_MS } from './seen-store.ts';

const USAGE = `usage: webhook-receiver [--port N] [--host H] [--secret S] [--max-body-bytes N]
                        [--data-dir D | --database-url URL] [--remember-for T] [--handler M]
                        [--scribe-url URL [--organization ID] [--heartbeat S]]
  --port            port to listen on (default 8787; 0 picks a free one)
  --host            address to listen on (default 127.0.0.1)
  --secret          the webhook secret token (default: $WEBHOOK_SECRET; prefer the variable,
                    since command lines are visible to other users of the machine)
  --max-body-bytes  largest body accepted (default ${DEFAULT_MAX_BODY_BYTES})
  --data-dir        folder where handled deliveries are kept, so a retry after a restart is
                    recognised (default: $WEBHOOK_DATA_DIR; in memory when neither is given)
  --database-url    postgres://… where several receivers share what they handled, so a
                    delivery one handled is a duplicate at the others (default: $WEBHOOK_DATABASE_URL;
                    prefer the variable when the URL holds a password)
  --remember-for    how long a handled delivery is remembered, e.g. 7d, 36h (default:
                    $WEBHOOK_REMEMBER_FOR, else ${formatDuration(DEFAULT_REMEMBER_MS)}; at least ${formatDuration(MIN_REMEMBER_MS)})
  --handler         a module whose default export is called with each accepted event before
                    its line is printed; a throw answers 500 so the sender retries. At least
                    once per delivery: make its effect once per the event's delivery_key
  --scribe-url      the service's scribing address: turns the clinic relay on (GET /events,
                    GET /links, GET /health), subscribers checked with its GET /users/me
                    (default: $WEBHOOK_SCRIBE_URL)
  --organization    the public id of the organization the relay serves (default:
                    $WEBHOOK_ORGANIZATION, else the first one a verified delivery names)
  --heartbeat       seconds between keep-alive comments on each stream (default ${DEFAULT_HEARTBEAT_MS / 1000})`;

function fail(message: string): never {
  process.stderr.write(`webhook-receiver: ${message}\n${USAGE}\n`);
  process.exit(2);
}

interface Options {
  port: number;
  host: string;
  secret: string;
  maxBodyBytes: number;
  dataDir: string | null;
  databaseUrl: string | null;
  rememberMs: number;
  handler: string | null;
  relay: RelayOptions | null;
}

function parse(): Options {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        secret: { type: 'string' },
        'max-body-bytes': { type: 'string', default: String(DEFAULT_MAX_BODY_BYTES) },
        'data-dir': { type: 'string' },
        'database-url': { type: 'string' },
        'remember-for': { type: 'string' },
        handler: { type: 'string' },
        'scribe-url': { type: 'string' },
        organization: { type: 'string' },
        heartbeat: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    process.exit(0);
  }
  const env = process.env;
  const secret = values.secret ?? env['WEBHOOK_SECRET'] ?? '';
  if (secret === '') fail('no webhook secret: pass --secret or set WEBHOOK_SECRET');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`--port must be an integer from 0 to 65535, not "${values.port}"`);
  const maxBodyBytes = Number(values['max-body-bytes']);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1) fail(`--max-body-bytes must be a positive integer`);
  const dataDir = values['data-dir'] || env['WEBHOOK_DATA_DIR'] || null;
  const databaseUrl = values['database-url'] || env['WEBHOOK_DATABASE_URL'] || null;
  if (dataDir && databaseUrl)
    fail(
      'give either a data folder (--data-dir, WEBHOOK_DATA_DIR) or a database (--database-url, WEBHOOK_DATABASE_URL), not both',
    );
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl))
    fail('--database-url must start with postgres:// or postgresql://');
  const rememberText = values['remember-for'] || env['WEBHOOK_REMEMBER_FOR'] || null;
  const rememberMs = rememberText === null ? DEFAULT_REMEMBER_MS : parseDuration(rememberText);
  if (rememberMs === null)
    fail(`--remember-for must be a number and a unit (s, m, h, d), such as 7d or 36h, not "${rememberText}"`);
  if (rememberMs < MIN_REMEMBER_MS) {
    fail(
      `--remember-for must be at least ${formatDuration(MIN_REMEMBER_MS)}, the sender's retries and a margin: any shorter and a late retry is handled twice`,
    );
  }
  const scribeUrl = values['scribe-url'] || env['WEBHOOK_SCRIBE_URL'] || null;
  const organization = (values.organization ?? env['WEBHOOK_ORGANIZATION'] ?? '').trim() || null;
  const heartbeat = Number(values.heartbeat ?? DEFAULT_HEARTBEAT_MS / 1000);
  if (!Number.isFinite(heartbeat) || heartbeat <= 0 || heartbeat > 3600)
    fail(`--heartbeat must be a number of seconds above 0 and at most 3600, not "${values.heartbeat}"`);
  if (scribeUrl !== null && !/^https?:\/\/[^/\s]+/.test(scribeUrl))
    fail(`--scribe-url must be an http:// or https:// address, not "${scribeUrl}"`);
  if (scribeUrl === null && (values.organization !== undefined || values.heartbeat !== undefined))
    fail('--organization and --heartbeat are for the relay: give --scribe-url too');
  if (organization !== null && !/^[\w-]{1,100}$/.test(organization))
    fail(`--organization must be the organization's public id (letters, digits, - and _), not "${organization}"`);
  return {
    port,
    host: values.host,
    secret,
    maxBodyBytes,
    dataDir,
    databaseUrl,
    rememberMs,
    handler: values.handler ?? null,
    relay:
      scribeUrl === null
        ? null
        : {
            scribeUrl,
            organization,
            heartbeatMs: Math.round(heartbeat * 1000),
            onOrganization: (learned) =>
              process.stderr.write(
                `webhook-receiver: relay: serving organization ${learned}, named by a verified delivery\n`,
              ),
          },
  };
}

async function loadHandler(path: string): Promise<(event: AcceptedEvent) => unknown> {
  let handler: unknown;
  try {
    handler = ((await import(pathToFileURL(resolve(path)).href)) as { default?: unknown }).default;
  } catch (error) {
    fail(`cannot load the handler ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (typeof handler !== 'function') fail(`the handler ${path} has no default export that is a function`);
  return handler as (event: AcceptedEvent) => unknown;
}

const { handler, ...options } = parse();
const onEvent = handler === null ? undefined : await loadHandler(handler);
quietSqliteWarning();
try {
  const receiver = await startWebhookReceiver({
    ...options,
    ...(onEvent ? { onEvent: async (event: AcceptedEvent) => void (await onEvent(event)) } : {}),
  });
  process.stdout.write(JSON.stringify({ url: receiver.url, seen: receiver.seenStore }) + '\n');
  process.stderr.write(
    options.dataDir || options.databaseUrl
      ? `webhook-receiver: handled deliveries are kept in ${receiver.seenStore}\n`
      : 'webhook-receiver: handled deliveries are kept in memory only, so a retry after a restart is handled again; pass --data-dir or set WEBHOOK_DATA_DIR to keep them\n',
  );
  if (options.relay) {
    process.stderr.write(
      `webhook-receiver: relay on at ${receiver.url}events, subscribers checked with ${options.relay.scribeUrl.replace(/\/+$/, '')}/users/me; ` +
        (options.relay.organization
          ? `serving organization ${options.relay.organization} (--organization)\n`
          : 'no --organization: serving the first organization a verified delivery names, and refusing subscribers (503) until then; the published scribe deliveries name none, so give --organization\n'),
    );
  }
  const stop = (): void => {
    receiver.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `webhook-receiver: ${message.startsWith('cannot keep') ? message : `cannot listen on ${options.host}:${options.port}: ${message}`}\n`,
  );
  process.exit(1);
}
