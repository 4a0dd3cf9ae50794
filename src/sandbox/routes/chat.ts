// The clinical assistant on {agents_url}: POST /chat, a conversation about a context the app
// sends (the consult's note). As published, it takes its own version, X-API-Version 0.2.0, and
// answers its errors as { error: <status>, message }, not FastAPI's { detail }.
import {
  CHAT_API_VERSION,
  chatRequestSchema,
  type ChatErrorWire,
  type ChatResponseWire,
} from '../../shared/service/index.ts';
import { API_VERSION_HEADER } from '../../shared/service/version.ts';
import { MAX_CHAT_CONTEXT, MAX_CHAT_MESSAGE } from '../../shared/limits.ts';
import { answerTurn, ChatMemory } from '../chat.ts';
import { ApiError, readJson, type Router } from '../http.ts';
import { sandboxPath, serve, signedInUser, type ServerParts } from './common.ts';

/** The path whose X-API-Version is its own (the server's check of the scribing API's version skips it). */
export const CHAT_PATH = sandboxPath('chat');

function refuse(status: number, message: string): ApiError {
  return new ApiError(status, String(status), message);
}

export function chatRoutes(router: Router, parts: ServerParts): void {
  const memory = parts.chat ?? new ChatMemory();

  serve(router, 'chat', async (ctx) => {
    try {
      const version = ctx.req.headers[API_VERSION_HEADER];
      if (version !== CHAT_API_VERSION)
        throw refuse(400, `X-API-Version ${CHAT_API_VERSION} is required on this operation.`);
      let claims;
      try {
        claims = await signedInUser(parts.auth, ctx);
      } catch (e) {
        // The published words, whatever is wrong with the token.
        if (e instanceof ApiError && e.status === 401) throw refuse(401, 'Authentication token is invalid or expired.');
        throw e;
      }
      let raw: unknown;
      try {
        raw = await readJson(ctx.req);
      } catch (e) {
        if (e instanceof ApiError && e.status === 422) throw refuse(400, 'Malformed JSON in the request body.');
        throw e;
      }
      const parsed = chatRequestSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') || 'body';
        throw refuse(
          400,
          issue?.code === 'unrecognized_keys'
            ? `Unknown field: ${issue.keys.join(', ')}`
            : issue?.message === 'Missing required field'
              ? `Missing required field: ${field}`
              : `Invalid field: ${field} ${issue?.message ?? 'is not valid'}`,
        );
      }
      const body = parsed.data;
      if (body.message.trim() === '') throw refuse(400, 'Invalid field: message must not be empty');
      if (body.message.length > MAX_CHAT_MESSAGE)
        throw refuse(400, `Invalid field: message is longer than ${MAX_CHAT_MESSAGE} characters`);
      if ((body.target_context ?? '').length > MAX_CHAT_CONTEXT)
        throw refuse(400, `Invalid field: target_context is longer than ${MAX_CHAT_CONTEXT} characters`);
      const org = claims.user.organization_id;
      let id: string;
      let conversation;
      if (body.conversation_id !== undefined) {
        conversation = memory.find(org, body.conversation_id);
        if (!conversation) throw refuse(404, 'Conversation not found');
        id = body.conversation_id;
        if (body.target_context !== undefined) conversation.context = body.target_context;
      } else {
        ({ id, conversation } = memory.start(org, body.target_context ?? ''));
      }
      const output = answerTurn(conversation, body.message);
      memory.remember(conversation, body.message, output);
      const answer: ChatResponseWire = { output, conversation_id: id };
      return { body: answer };
    } catch (e) {
      if (!(e instanceof ApiError) || e.status >= 500) throw e;
      const error: ChatErrorWire = { error: e.status, message: e.message };
      return { status: e.status, body: error, headers: e.headers };
    }
  });
}
