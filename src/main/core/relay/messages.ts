// What the relay sends, read with one schema each: an event that is not what the protocol says
// is dropped with a log line, never half used.
import { z } from 'zod';

/** One delivery of the service, as the relay passes it on: ids and status only, never a note's text. */
export const relayEventSchema = z.object({
  id: z.number().int().nonnegative(),
  public_id: z.string().min(1).max(200),
  recording_session_public_id: z.string().min(1).max(200).nullable(),
  status: z.string().min(1).max(100),
  at: z.string().max(100),
});
export type RelayEvent = z.infer<typeof relayEventSchema>;

export const readySchema = z.object({ organization: z.string().min(1).max(200), last_id: z.number().int() });

/** `GET /links?since=`: the events after `since` that pair a recording session with its scribe. */
export const linksSchema = z.object({
  links: z.array(relayEventSchema.extend({ recording_session_public_id: z.string().min(1).max(200) })).max(100_000),
  last_id: z.number().int().nonnegative(),
});
export type RelayLink = z.infer<typeof linksSchema>['links'][number];

/** The relay's refusal, `{ error: { code, message } }`; its words when it gave them. */
export function refusalMessage(body: string, status: number): string {
  try {
    const parsed = z.object({ error: z.object({ message: z.string().max(500) }) }).safeParse(JSON.parse(body));
    if (parsed.success && parsed.data.error.message.trim()) return parsed.data.error.message.trim();
  } catch {
    // not JSON: the status says it
  }
  return `HTTP ${status}`;
}
