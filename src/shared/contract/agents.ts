// The window's calls to the service's agents with no consult (`agents:*`) and about the
// organization (`org:*`): main's side is src/main/core/agents/calls.ts.
import { z } from 'zod';
import type { MedicationResult, DdxResult, Organization, TreatmentPlanResult, Webhook } from '../service/index.ts';
import { MAX_AGENT_INPUT, MAX_EMAIL, MAX_SECRET, MAX_URL, MIN_WEBHOOK_SECRET } from '../limits.ts';
import { answer, none } from './fields.ts';

export type TreatmentPlanAnswer =
  { kind: 'result'; result: TreatmentPlanResult } | { kind: 'needs_species'; message: string };

export const agentsInvokes = {
  'agents:ddx': {
    input: z.object({ input: z.string().max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`) }),
    output: answer<DdxResult>(),
  },
  'agents:medication': {
    input: z.object({ input: z.string().max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`) }),
    output: answer<MedicationResult>(),
  },
  'agents:treatmentPlan': {
    input: z.object({
      input: z.string().max(MAX_AGENT_INPUT, `is longer than ${MAX_AGENT_INPUT} characters`),
      allowWithoutSpecies: z.boolean().optional(),
    }),
    output: answer<TreatmentPlanAnswer>(),
  },
  'org:setNotificationEmail': {
    input: z.object({ email: z.string().trim().max(MAX_EMAIL, 'is too long').email('must be an e-mail address') }),
    output: answer<Organization>(),
  },
  'org:setScribeWebhook': { input: z.object({ active: z.boolean() }), output: answer<Webhook>() },
  /** The organization as the service has it (the notification address in force). */
  'org:get': { input: none, output: answer<Organization>() },
  /** Registers the clinic's webhook endpoint; the secret goes to the service and the keychain only. */
  'org:registerWebhook': {
    input: z.object({
      url: z
        .string()
        .trim()
        .max(MAX_URL, 'is too long')
        .regex(/^https:\/\/[^\s/]+/i, 'must be an https:// address the service can reach'),
      secret: z
        .string()
        .min(MIN_WEBHOOK_SECRET, `must be at least ${MIN_WEBHOOK_SECRET} characters`)
        .max(MAX_SECRET, 'is too long'),
    }),
    output: answer<Webhook>(),
  },
} as const;
