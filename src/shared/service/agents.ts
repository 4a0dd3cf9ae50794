// The clinical agents: `POST /ddx_agent_v2`, `/treatment_plan_agent_v2` and
// `/medication_agent_v2` (docs/service.md). The details member is a single set of fields in the
// formal schema and a map from a diagnosis label to such sets in the sample; both are read. A missing or empty text field becomes undefined and the UI leaves it out,
// since a half-filled answer is still worth showing. When status is false the service has
// turned the input away: only the reason (and any summaries) are read.
import { z } from 'zod';
import type { Operation } from './errors.ts';
import { isRecord, parseAnswer, parseInside, text } from './envelope.ts';

import { DDX_FIELDS, MEDICATION_FIELDS, TREATMENT_FIELDS, type FieldSpec } from './fields.ts';

export { DDX_FIELDS, MEDICATION_FIELDS, TREATMENT_FIELDS, type FieldSpec };

export type DdxFieldKey = (typeof DDX_FIELDS)[number]['key'];
export type TreatmentFieldKey = (typeof TREATMENT_FIELDS)[number]['key'];
export type MedicationFieldKey = (typeof MEDICATION_FIELDS)[number]['key'];

/** One candidate diagnosis. `label` is its key in the map form, else its name ('' if none). */
export type DdxDiagnosis = { label: string } & Partial<Record<DdxFieldKey, string>>;
/** One treatment plan. `label` is its key in the map form, else its diagnosis or plan name. */
export type TreatmentPlan = { label: string } & Partial<Record<TreatmentFieldKey, string>>;
/** One drug's card. `label` is its key in the map form (the drug), else its name and class. */
export type MedicationDrug = { label: string } & Partial<Record<MedicationFieldKey, string>>;

interface AgentResult {
  /** false: the service judged the input unrelated to the agent; `reason` says why. */
  status: boolean;
  reason: string;
  /** 'Plain English Concise'. */
  concise?: string;
  /** 'Plain English Summary'. */
  summary?: string;
}

export interface DdxResult extends AgentResult {
  diagnoses: DdxDiagnosis[];
}

export interface TreatmentPlanResult extends AgentResult {
  plans: TreatmentPlan[];
}

export interface MedicationResult extends AgentResult {
  medications: MedicationDrug[];
}

export const DDX_DETAILS = 'Differential Diagnosis Details';
export const MEDICATION_DETAILS = 'Medication Details';
export const TREATMENT_DETAILS = 'Treatment Plan Details';
export const CONCISE = 'Plain English Concise';
export const SUMMARY = 'Plain English Summary';

function setSchema<K extends string>(fields: readonly FieldSpec<K>[]) {
  const shape: Record<string, typeof text> = {};
  for (const field of fields) for (const name of [field.wire, ...(field.aliases ?? [])]) shape[name] = text;
  return z.object(shape).transform((w) => {
    const out: Partial<Record<K, string>> = {};
    for (const field of fields) {
      const value = [field.wire, ...(field.aliases ?? [])].map((name) => w[name]).find((v) => v !== undefined);
      if (value !== undefined) out[field.key] = value;
    }
    return out;
  });
}

/**
 * Details in either form. The map form is an object whose members are all objects; the
 * single-set form has at least one of the set's own members directly.
 */
function detailsSchema<K extends string>(fields: readonly FieldSpec<K>[], labelKeys: readonly K[]) {
  const set = setSchema(fields);
  const wireNames = new Set(fields.flatMap((f) => [f.wire, ...(f.aliases ?? [])]));
  return z
    .record(z.string(), z.unknown())
    .transform((details, ctx): ({ label: string } & Partial<Record<K, string>>)[] => {
      const entries = Object.entries(details);
      const isMap = entries.length > 0 && entries.every(([, v]) => isRecord(v));
      if (!isMap && Object.keys(details).some((name) => wireNames.has(name))) {
        const one = parseInside(ctx, set, details, []);
        if (one === undefined) return z.NEVER;
        const label = labelKeys.map((k) => one[k]).find((v) => v !== undefined) ?? '';
        return [{ label, ...one }];
      }
      const all = parseInside(ctx, z.record(z.string(), set), details, []);
      if (all === undefined) return z.NEVER;
      return Object.entries(all).map(([label, one]) => ({ label, ...one }));
    });
}

function agentSchema<D>(details: z.ZodType<D[]>, detailsName: string) {
  return z
    .object({ status: z.boolean(), reason: z.string().nullish(), response: z.unknown().optional() })
    .transform((w, ctx) => {
      const base = { status: w.status, reason: w.reason ?? '' };
      const response = w.response;
      // A refusal's response is not described by the service: use what is readable, never fail.
      if (!w.status) {
        const concise = isRecord(response) ? text.safeParse(response[CONCISE]).data : undefined;
        const summary = isRecord(response) ? text.safeParse(response[SUMMARY]).data : undefined;
        return { ...base, ...optional({ concise, summary }), items: [] as D[] };
      }
      const read = parseInside(ctx, z.object({ [detailsName]: details, [CONCISE]: text, [SUMMARY]: text }), response, [
        'response',
      ]);
      if (read === undefined) return z.NEVER;
      return {
        ...base,
        ...optional({ concise: read[CONCISE] as string | undefined, summary: read[SUMMARY] as string | undefined }),
        items: read[detailsName] as D[],
      };
    });
}

function optional(values: {
  concise: string | undefined;
  summary: string | undefined;
}): Pick<AgentResult, 'concise' | 'summary'> {
  return {
    ...(values.concise !== undefined ? { concise: values.concise } : {}),
    ...(values.summary !== undefined ? { summary: values.summary } : {}),
  };
}

const ddxSchema = agentSchema(detailsSchema(DDX_FIELDS, ['name']), DDX_DETAILS);
const treatmentSchema = agentSchema(
  detailsSchema(TREATMENT_FIELDS, ['diagnosisName', 'treatmentPlanName']),
  TREATMENT_DETAILS,
);

const medicationSchema = agentSchema(
  detailsSchema(MEDICATION_FIELDS, ['drugNameAndClassification']),
  MEDICATION_DETAILS,
);

function parseAgent<D>(
  operation: Operation,
  schema: z.ZodType<AgentResult & { items: D[] }>,
  body: unknown,
): AgentResult & { items: D[] } {
  return parseAnswer(operation, schema, body);
}

/** `POST /ddx_agent_v2`. */
export function parseDdxResult(body: unknown): DdxResult {
  const { items, ...rest } = parseAgent('ddx-agent', ddxSchema, body);
  return { ...rest, diagnoses: items };
}

/** `POST /treatment_plan_agent_v2`. */
export function parseTreatmentPlanResult(body: unknown): TreatmentPlanResult {
  const { items, ...rest } = parseAgent('treatment-plan-agent', treatmentSchema, body);
  return { ...rest, plans: items };
}

/** `POST /medication_agent_v2`: details as a map drug -> card, or one card. */
export function parseMedicationResult(body: unknown): MedicationResult {
  const { items, ...rest } = parseAgent('medication-agent', medicationSchema, body);
  return { ...rest, medications: items };
}
