// The conversation with the clinical assistant: `POST {agents_url}/chat` (docs/service.md). It
// is served on the sign-in host, not the agents' API, and carries a version of its own in
// `X-API-Version`. The first turn sends the context (a consult's note) and no conversation id;
// the answer names the conversation, and the next turns send that id. Only `output` is
// promised: an answer without an id keeps the conversation it was sent in. Its errors come as
// `{ error: <status>, message }`.
import { z } from 'zod';
import { parseAnswer } from './envelope.ts';

/** The version `POST /chat` takes, in the same header as every other call's. */
export const CHAT_API_VERSION = '0.2.0';

const stringError = (issue: { input?: unknown }) =>
  issue.input === undefined ? 'Missing required field' : 'must be a string';

/** `POST /chat` as the published document lists it; the sandbox refuses an unknown member. */
export const chatRequestSchema = z.strictObject({
  message: z.string({ error: stringError }),
  target_context: z.string({ error: stringError }).optional(),
  conversation_id: z.string({ error: stringError }).optional(),
});
export type ChatRequest = z.input<typeof chatRequestSchema>;

/** What the sandbox writes for a turn. */
export interface ChatResponseWire {
  output: string;
  conversation_id: string;
}

/** The error body of `POST /chat`: the HTTP status again, as a number, and a sentence. */
export interface ChatErrorWire {
  error: number;
  message: string;
}

/** A turn's answer as the app reads it; `conversationId` is null when the service named none. */
export interface ChatAnswer {
  output: string;
  conversationId: string | null;
}

const chatAnswerSchema = z
  .object({
    output: z.string(),
    conversation_id: z
      .string()
      .nullish()
      .transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v)),
  })
  .transform((w): ChatAnswer => ({ output: w.output, conversationId: w.conversation_id }));

/** `POST /chat`. */
export function parseChatAnswer(body: unknown): ChatAnswer {
  return parseAnswer('chat', chatAnswerSchema, body);
}
