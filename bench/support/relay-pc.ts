// An exam-room PC as the clinic relay sees it, for bench/relay.ts: one GET /events with the vet's
// own access token, each relay event timed the moment it is read, and, when its relay goes away,
// the same subscription again at another relay with Last-Event-ID. The stream is read by hand, as
// the app's reader (src/main/core/relay/event-stream.ts) does and for the same reason: Node's
// EventSource cannot send an Authorization header. Only what the relay writes is read (`id:`,
// `event:` and `data:` lines, `\n` line ends); the bench checks every event it reads.
import { request } from 'undici';

export interface Receipt {
  id: number;
  /** `<public_id>:<status>`: the delivery the event came from. */
  key: string;
  /** performance.now() when the event was read. */
  at: number;
}

export interface Subscription {
  url: string;
  askedAt: number;
  /** When its `ready` event arrived; null while it has not. */
  readyAt: number | null;
  /** The relay's `last_id` in that `ready` event. */
  readyLastId: number | null;
  /** When the stream ended without being closed here. */
  droppedAt: number | null;
}

export class RelayPc {
  readonly index: number;
  readonly receipts: Receipt[] = [];
  readonly subscriptions: Subscription[] = [];
  /** Events that were not what the protocol says (they would be a bug of the relay). */
  readonly malformed: string[] = [];
  /** Told when a stream ends that this PC did not close, so the bench can subscribe it elsewhere. */
  onDrop: (pc: RelayPc) => void = () => {};
  private readonly token: string;
  private abort: AbortController | null = null;

  constructor(index: number, token: string) {
    this.index = index;
    this.token = token;
  }

  /** The id of the last event read: the Last-Event-ID a resumed subscription gives. */
  get lastId(): number {
    return this.receipts.at(-1)?.id ?? 0;
  }

  /** Subscribes at `relayUrl` (resuming after `lastEventId` when given); resolves on its `ready`. */
  async subscribe(relayUrl: string, lastEventId: number | null): Promise<Subscription> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    const sub: Subscription = {
      url: relayUrl,
      askedAt: performance.now(),
      readyAt: null,
      readyLastId: null,
      droppedAt: null,
    };
    this.subscriptions.push(sub);
    const answer = await request(`${relayUrl}events`, {
      method: 'GET',
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(lastEventId === null ? {} : { 'last-event-id': String(lastEventId) }),
      },
      signal: abort.signal,
      // The relay's keep-alive comments keep the stream busy; nothing here should cut it.
      bodyTimeout: 0,
    });
    if (answer.statusCode !== 200)
      throw new Error(`GET /events answered ${answer.statusCode}: ${await answer.body.text()}`);
    let ready: () => void = () => {};
    let failed: (e: Error) => void = () => {};
    const readyOrEnd = new Promise<void>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    let buffered = '';
    answer.body.setEncoding('utf8');
    answer.body.on('data', (chunk: string) => {
      const at = performance.now();
      buffered += chunk;
      let end: number;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const fields = new Map<string, string>();
        for (const line of block.split('\n')) {
          const colon = line.indexOf(': ');
          if (!line.startsWith(':') && colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
        }
        const event = fields.get('event');
        try {
          this.take(sub, event, fields, block, at, ready);
        } catch {
          this.malformed.push(block);
        }
      }
    });
    const ended = () => {
      if (abort.signal.aborted || sub.droppedAt !== null) return;
      sub.droppedAt = performance.now();
      if (sub.readyAt === null) failed(new Error(`the stream at ${relayUrl} ended before its ready event`));
      else this.onDrop(this);
    };
    answer.body.on('error', ended);
    answer.body.on('end', ended);
    await readyOrEnd;
    return sub;
  }

  /** One event read off the stream; throws on data that is not JSON. */
  private take(
    sub: Subscription,
    event: string | undefined,
    fields: Map<string, string>,
    block: string,
    at: number,
    ready: () => void,
  ): void {
    if (event === 'ready') {
      sub.readyAt = at;
      sub.readyLastId = (JSON.parse(fields.get('data') ?? '{}') as { last_id?: number }).last_id ?? null;
      ready();
    } else if (event === 'scribe') {
      const data = JSON.parse(fields.get('data') ?? '{}') as { id?: number; public_id?: string; status?: string };
      const id = Number(fields.get('id'));
      if (data.id !== id || typeof data.public_id !== 'string' || typeof data.status !== 'string')
        this.malformed.push(block);
      else this.receipts.push({ id, key: `${data.public_id}:${data.status}`, at });
    } else if (event !== undefined) this.malformed.push(block);
  }

  close(): void {
    this.abort?.abort();
  }
}
