// An exam-room PC as the relay sees it: a real `GET /events` over loopback, its server-sent events
// read as they arrive. Closed after the test (support.ts).
import { request } from 'undici';
import { closeAfterTest, until } from './support.ts';

export interface SentEvent {
  id: string | null;
  event: string;
  data: unknown;
}

export interface Subscription {
  status: number;
  events: SentEvent[];
  /** `: keep-alive` comments seen. */
  comments: number;
  ended: boolean;
  /** The relay events (`scribe`) received so far. */
  scribe(): { id: number; public_id: string; recording_session_public_id: string | null; status: string; at: string }[];
  /** Waits until `count` relay events have arrived. */
  waitFor(count: number, what?: string): Promise<void>;
  close(): void;
}

/** Subscribes with the token (none when null) and, when given, a Last-Event-ID. */
export async function subscribe(
  relayUrl: string,
  token: string | null,
  headers: Record<string, string> = {},
  path = 'events',
): Promise<Subscription> {
  const abort = new AbortController();
  const answer = await request(`${relayUrl}${path}`, {
    method: 'GET',
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    signal: abort.signal,
  });
  const sub: Subscription = {
    status: answer.statusCode,
    events: [],
    comments: 0,
    ended: false,
    scribe: () =>
      sub.events.filter((e) => e.event === 'scribe').map((e) => e.data as ReturnType<Subscription['scribe']>[number]),
    waitFor: (count, what = `${count} relay events`) => until(() => sub.scribe().length >= count, what),
    close: () => abort.abort(),
  };
  closeAfterTest(async () => sub.close());
  if (answer.statusCode !== 200) {
    sub.events.push({ id: null, event: 'answer', data: await answer.body.json() });
    sub.ended = true;
    return sub;
  }
  let buffered = '';
  answer.body.setEncoding('utf8');
  answer.body.on('data', (chunk: string) => {
    buffered += chunk;
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) sub.comments += 1;
        else {
          const at = line.indexOf(': ');
          if (at > 0) fields[line.slice(0, at)] = line.slice(at + 2);
        }
      }
      if (fields['event'] !== undefined)
        sub.events.push({
          id: fields['id'] ?? null,
          event: fields['event'],
          data: JSON.parse(fields['data'] ?? 'null'),
        });
    }
  });
  answer.body.on('error', () => (sub.ended = true));
  answer.body.on('end', () => (sub.ended = true));
  await until(() => sub.events.length > 0 || sub.ended, 'the ready event');
  return sub;
}
