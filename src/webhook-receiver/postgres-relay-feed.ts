// The relay's events shared by several receivers in PostgreSQL: ids from the table's sequence, and
// each new event announced with NOTIFY (its id as the payload) when the transaction that recorded
// its delivery commits, so every receiver passes every event to its subscribers.
//
// Ids are taken and committed one at a time: the event is inserted under a transaction-level
// advisory lock held to the COMMIT. Without it, two receivers could commit ids 8 and 7 in that
// order, and a subscriber sent 8 would never be sent 7 (its Last-Event-ID already says 8). With it,
// an event becomes visible only after every smaller id, so "everything above the last id I passed
// on" is all a receiver needs to ask for: a NOTIFY is only a nudge to ask, and a lost one (the
// listening connection dropped) costs a few seconds until the next periodic ask, never an event.
import type { Client, Pool, PoolClient } from 'pg';
import { Listeners, type RelayEvent, type RelayEventInput, type RelayFeed } from './relay-feed.ts';

export const RELAY_TABLE = 'webhook_relay_events';
const CHANNEL = 'webhook_relay';
/** How often a receiver asks for new events without being told (a NOTIFY lost with its connection). */
const CATCH_UP_EVERY_MS = 5_000;
const RECONNECT_AFTER_MS = 1_000;
const PAGE = 1_000;

export const CREATE_RELAY_TABLE = `
  CREATE TABLE ${RELAY_TABLE} (
    id bigserial PRIMARY KEY,
    public_id text NOT NULL,
    recording_session_public_id text,
    status text NOT NULL,
    at timestamptz NOT NULL
  );
  CREATE INDEX ${RELAY_TABLE}_at ON ${RELAY_TABLE} (at)`;

/** Inside the claim's transaction, just before its COMMIT: the event, its id, and the announcement. */
export async function insertRelayEvent(client: PoolClient, input: RelayEventInput): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(hashtext('${RELAY_TABLE}'))`);
  await client.query(
    `WITH added AS (
       INSERT INTO ${RELAY_TABLE} (public_id, recording_session_public_id, status, at) VALUES ($1, $2, $3, $4)
       RETURNING id)
     SELECT pg_notify('${CHANNEL}', id::text) FROM added`,
    [input.public_id, input.recording_session_public_id, input.status, new Date(input.at)],
  );
}

interface Row {
  id: string;
  public_id: string;
  recording_session_public_id: string | null;
  status: string;
  at: Date;
}

const toEvent = (row: Row): RelayEvent => ({
  id: Number(row.id),
  public_id: row.public_id,
  recording_session_public_id: row.recording_session_public_id,
  status: row.status,
  at: row.at.toISOString(),
});

export class PostgresRelayFeed implements RelayFeed {
  private readonly pool: Pool;
  private readonly url: string;
  private readonly listeners = new Listeners();
  private cursor = 0;
  private catching: Promise<void> = Promise.resolve();
  private client: Client | null = null;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(pool: Pool, url: string) {
    this.pool = pool;
    this.url = url;
  }

  async start(): Promise<void> {
    this.cursor = await this.lastId();
    await this.connect();
    this.timer = setInterval(() => this.catchUp(), CATCH_UP_EVERY_MS);
  }

  async after(id: number, limit: number): Promise<RelayEvent[]> {
    const result = await this.pool.query<Row>(
      `SELECT id, public_id, recording_session_public_id, status, at FROM ${RELAY_TABLE} WHERE id > $1 ORDER BY id LIMIT $2`,
      [id, limit],
    );
    return result.rows.map(toEvent);
  }

  // max(id), not the sequence: a sequence value may belong to a transaction still to commit.
  async lastId(): Promise<number> {
    const result = await this.pool.query<{ id: string | null }>(`SELECT max(id) AS id FROM ${RELAY_TABLE}`);
    return Number(result.rows[0]?.id ?? 0);
  }

  listen(listener: (event: RelayEvent) => void): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.client?.end().catch(() => {});
    await this.catching;
  }

  private async connect(): Promise<void> {
    const { Client } = await import('pg');
    const client = new Client({ connectionString: this.url, application_name: 'webhook-receiver relay' });
    client.on('notification', () => this.catchUp());
    const lost = (): void => {
      if (this.client !== client) return;
      this.client = null;
      client.end().catch(() => {});
      if (!this.closed) setTimeout(() => void this.reconnect(), RECONNECT_AFTER_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
    // Events recorded while no connection was listening.
    this.catchUp();
  }

  private async reconnect(): Promise<void> {
    if (this.closed || this.client) return;
    try {
      await this.connect();
    } catch {
      if (!this.closed) setTimeout(() => void this.reconnect(), RECONNECT_AFTER_MS).unref();
    }
  }

  /** Passes on every event above the cursor, in order; one pass at a time. */
  private catchUp(): void {
    this.catching = this.catching.then(async () => {
      if (this.closed) return;
      try {
        for (;;) {
          const events = await this.after(this.cursor, PAGE);
          for (const event of events) {
            this.cursor = event.id;
            this.listeners.emit(event);
          }
          if (events.length < PAGE) break;
        }
      } catch {
        // The database is away: the next NOTIFY or the periodic pass tries again from the same cursor.
      }
    });
  }
}
