// Handled deliveries shared by several receivers in one PostgreSQL table, so that behind a load
// balancer a delivery is handled by one receiver, whichever receiver each of its copies reaches.
//
// How copies are kept from being handled side by side: claiming it INSERTs its key into a table whose primary key is
// the key, in a transaction kept open while the handler runs, then COMMITted if the handler
// succeeded and rolled back if it failed. PostgreSQL makes a second INSERT of a key that an
// open transaction has inserted wait until that transaction ends, because the unique index cannot
// decide before: after a COMMIT the second finds the key and is a duplicate; after a rollback
// the key is absent and the second claims it itself. There is no read-then-write, so no moment
// in which two copies both see the key missing. A key handled longer ago than the memory is
// claimed again by the same statement (ON CONFLICT … DO UPDATE … WHERE older), so the purge only
// keeps the table small and correctness never depends on it.
//
// The open transaction is the claim's lease, holdLimitMs long (idle_in_transaction_session_timeout):
// while the handler runs, the claim renews it with a trivial statement every third of it, so a
// handler that takes longer than the lease keeps its key, and a copy at another receiver waits
// for its outcome instead of being handled beside it. Letting the lease run out under a running
// handler, as this store once did, handed the delivery to the next copy while the first call
// was still at work: two calls of one delivery, and the first one's work answered 500.
//
// Nothing holds a key for ever: a receiver that crashes closes its connection and PostgreSQL
// rolls its transaction back at once; one that hangs, is frozen or loses its network stops
// renewing, and the server cuts it off once its transaction has sat idle for holdLimitMs.
// A copy waits for a held key for waitMs at most (lock_timeout), then is answered 503 so that the
// sender tries again later; and a server that vanished fails a query after query_timeout rather
// than leaving the receiver waiting on TCP for a quarter of an hour.
//
// pg is imported only here and only when a database is given, so a receiver copied out for one
// machine runs without it.
import type { Pool, PoolClient } from 'pg';
import { CREATE_RELAY_TABLE, insertRelayEvent, PostgresRelayFeed, RELAY_TABLE } from './postgres-relay-feed.ts';
import type { RelayFeed } from './relay-feed.ts';
import {
  DEFAULT_REMEMBER_MS,
  DEFAULT_WAIT_MS,
  PURGE_EVERY_MS,
  StoreBusyError,
  type Claim,
  type SeenStore,
} from './seen-store.ts';

export const SEEN_TABLE = 'webhook_seen';

/**
 * The claim's lease: a transaction idle this long belongs to a receiver that hung, and the server
 * ends it. A running handler renews it, so it bounds a stuck receiver, not a slow handler.
 */
export const DEFAULT_HOLD_LIMIT_MS = 2 * 60_000;

/** Connections per receiver: each claim holds one while its handler runs. */
const POOL_SIZE = 10;

const CREATE = `
  CREATE TABLE ${SEEN_TABLE} (
    key text PRIMARY KEY,
    handled_at timestamptz NOT NULL
  );
  CREATE INDEX ${SEEN_TABLE}_handled_at ON ${SEEN_TABLE} (handled_at)`;

const CLAIM = `
  INSERT INTO ${SEEN_TABLE} AS seen (key, handled_at) VALUES ($1, $2)
  ON CONFLICT (key) DO UPDATE SET handled_at = EXCLUDED.handled_at WHERE seen.handled_at < $3
  RETURNING key`;

export interface PostgresSeenStoreOptions {
  rememberMs?: number;
  waitMs?: number;
  holdLimitMs?: number;
  now?: number;
}

export async function openPostgresSeenStore(
  url: string,
  options: PostgresSeenStoreOptions = {},
): Promise<PostgresSeenStore> {
  const where = describeUrl(url);
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const holdLimitMs = options.holdLimitMs ?? DEFAULT_HOLD_LIMIT_MS;
  let pool: Pool | undefined;
  try {
    const { Pool } = await import('pg');
    pool = new Pool({
      connectionString: url,
      max: POOL_SIZE,
      connectionTimeoutMillis: waitMs,
      lock_timeout: waitMs,
      idle_in_transaction_session_timeout: holdLimitMs,
      query_timeout: waitMs + 10_000,
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      application_name: 'webhook-receiver',
    });
    // An idle connection the server closed is dropped by the pool; the next claim opens another.
    pool.on('error', () => {});
    const client = await pool.connect();
    try {
      // Receivers started together would otherwise race to create the same table. Looking
      // first lets a user without CREATE on the schema use a table made for it.
      await client.query('BEGIN');
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('${SEEN_TABLE}'))`);
      const found = await client.query<{ present: boolean }>(
        `SELECT to_regclass('${SEEN_TABLE}') IS NOT NULL AS present`,
      );
      if (!found.rows[0]?.present) await client.query(CREATE);
      const relay = await client.query<{ present: boolean }>(
        `SELECT to_regclass('${RELAY_TABLE}') IS NOT NULL AS present`,
      );
      if (!relay.rows[0]?.present) await client.query(CREATE_RELAY_TABLE);
      await client.query('COMMIT');
      client.release();
    } catch (e) {
      client.release(e as Error);
      throw e;
    }
  } catch (e) {
    await pool?.end().catch(() => {});
    throw new Error(`cannot keep deliveries in ${where}: ${(e as Error).message}`, { cause: e });
  }
  const store = new PostgresSeenStore(pool, where, options.rememberMs ?? DEFAULT_REMEMBER_MS, holdLimitMs, url);
  store.purge(options.now ?? Date.now());
  return store;
}

export class PostgresSeenStore implements SeenStore {
  readonly where: string;
  private readonly pool: Pool;
  private readonly rememberMs: number;
  private readonly holdLimitMs: number;
  private purgedAt = 0;
  private purging: Promise<void> | null = null;
  private readonly url: string | null;
  private feed: PostgresRelayFeed | null = null;

  constructor(
    pool: Pool,
    where: string,
    rememberMs: number,
    holdLimitMs = DEFAULT_HOLD_LIMIT_MS,
    url: string | null = null,
  ) {
    this.pool = pool;
    this.url = url;
    this.where = where;
    this.rememberMs = rememberMs;
    this.holdLimitMs = holdLimitMs;
  }

  async claim(key: string, now: number): Promise<Claim | null> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      if (/timeout exceeded/.test((e as Error).message))
        throw new StoreBusyError(`all ${POOL_SIZE} connections to PostgreSQL are busy`, { cause: e });
      throw e;
    }
    // A connection the server cuts while checked out reports here; the next query then fails.
    const lost = (): void => {};
    client.on('error', lost);
    // Set once the key is claimed, and stopped whichever way the claim ends.
    const renewal: { timer?: NodeJS.Timeout } = {};
    const end = (error?: Error): void => {
      clearInterval(renewal.timer);
      client.off('error', lost);
      client.release(error);
    };
    try {
      await client.query('BEGIN');
      const claimed = await client.query(CLAIM, [key, new Date(now), new Date(now - this.rememberMs)]);
      if (claimed.rowCount === 0) {
        await client.query('ROLLBACK');
        end();
        return null;
      }
    } catch (e) {
      end(e as Error);
      if ((e as { code?: string }).code === '55P03')
        throw new StoreBusyError('another receiver is still handling this delivery', { cause: e });
      throw e;
    }
    // Renews the lease while the handler runs. Statements on one client run in turn, so COMMIT
    // waits for a renewal in flight; a renewal that fails means the connection is gone, and the
    // COMMIT then fails and says so.
    renewal.timer = setInterval(
      () => void client.query('SELECT 1').catch(() => {}),
      Math.max(1, Math.floor(this.holdLimitMs / 3)),
    );
    return {
      commit: async (relay) => {
        clearInterval(renewal.timer);
        try {
          // In the claim's transaction: the event is recorded, and announced, exactly when the delivery is.
          if (relay) await insertRelayEvent(client, relay);
          // A transaction the server aborted answers COMMIT with ROLLBACK, not an error.
          const done = await client.query('COMMIT');
          if (done.command !== 'COMMIT') throw new Error('PostgreSQL rolled the claim back');
          end();
        } catch (e) {
          end(e as Error);
          throw e;
        }
        if (now - this.purgedAt >= PURGE_EVERY_MS) this.purge(now);
      },
      release: async () => {
        clearInterval(renewal.timer);
        try {
          await client.query('ROLLBACK');
          end();
        } catch (e) {
          end(e as Error);
        }
      },
    };
  }

  async openFeed(): Promise<RelayFeed> {
    if (this.feed) return this.feed;
    if (this.url === null) throw new Error('this store was opened without its URL, so it cannot listen');
    const feed = new PostgresRelayFeed(this.pool, this.url);
    await feed.start();
    this.feed = feed;
    return feed;
  }

  /** Drops keys past the memory, in the background: a failure is retried at the next purge. */
  purge(now: number): void {
    this.purgedAt = now;
    if (this.purging) return;
    const before = new Date(now - this.rememberMs);
    this.purging = this.pool
      .query(`DELETE FROM ${SEEN_TABLE} WHERE handled_at < $1`, [before])
      .then(() => this.pool.query(`DELETE FROM ${RELAY_TABLE} WHERE at < $1`, [before]))
      .then(
        () => {},
        () => {},
      )
      .finally(() => (this.purging = null));
  }

  async close(): Promise<void> {
    await this.feed?.close();
    await this.purging;
    await this.pool.end();
  }
}

/** The URL without its password, for logs and the start line. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    return `PostgreSQL ${parsed.toString()} (table ${SEEN_TABLE})`;
  } catch {
    return `PostgreSQL (table ${SEEN_TABLE})`;
  }
}
