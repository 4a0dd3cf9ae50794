// The clinical agents on {agents_api_url}: POST /ddx_agent_v2, /treatment_plan_agent_v2,
// /medication_agent_v2 and /chat_agent answer JSON; POST /fast_ddx_agent and
// /fast_treatment_plan_agent answer one block of plain text.
import { invalid, readBody, type RequestContext, type Router } from '../http.ts';
import { answerDdx, answerTreatmentPlan } from '../agents.ts';
import { answerChat, answerFast, answerMedication } from '../medication.ts';
import { schemas, serve, signedInUser, type ServerParts } from './common.ts';

export const MAX_AGENT_INPUT_CHARS = 20_000;

export function agentRoutes(router: Router, parts: ServerParts): void {
  const { auth } = parts;

  const agentInput = async (ctx: RequestContext): Promise<string> => {
    await signedInUser(auth, ctx);
    const { input } = await readBody(ctx.req, schemas.agent);
    if (input.trim() === '')
      throw invalid([
        { loc: ['body', 'input'], msg: 'String should have at least 1 character', type: 'string_too_short' },
      ]);
    if (input.length > MAX_AGENT_INPUT_CHARS) {
      throw invalid([
        {
          loc: ['body', 'input'],
          msg: `String should have at most ${MAX_AGENT_INPUT_CHARS} characters`,
          type: 'string_too_long',
        },
      ]);
    }
    return input;
  };
  serve(router, 'ddx-agent', async (ctx) => ({ body: answerDdx(await agentInput(ctx)) }));
  serve(router, 'treatment-plan-agent', async (ctx) => ({
    body: answerTreatmentPlan(await agentInput(ctx)),
  }));
  serve(router, 'medication-agent', async (ctx) => ({
    body: answerMedication(await agentInput(ctx)),
  }));
  serve(router, 'chat-agent', async (ctx) => {
    await signedInUser(auth, ctx);
    const body = await readBody(ctx.req, schemas.chatAgent);
    if (body.input.trim() === '')
      throw invalid([
        { loc: ['body', 'input'], msg: 'String should have at least 1 character', type: 'string_too_short' },
      ]);
    return { body: answerChat(body.input) };
  });
  // The fast agents answer one block of plain text, not JSON.
  for (const [operation, kind] of [
    ['fast-ddx-agent', 'ddx'],
    ['fast-treatment-plan-agent', 'treatment'],
  ] as const) {
    serve(router, operation, async (ctx) => {
      await signedInUser(auth, ctx);
      const { message } = await readBody(ctx.req, schemas.fastAgent);
      if (message.trim() === '')
        throw invalid([
          { loc: ['body', 'message'], msg: 'String should have at least 1 character', type: 'string_too_short' },
        ]);
      return { body: answerFast(kind, message), text: true };
    });
  }
}
