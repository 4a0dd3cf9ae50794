// The two clinical agents of the sandbox (`POST /ddx_agent_v2`, `POST /treatment_plan_agent_v2`),
// answering from the curated knowledge base in knowledge/. Both answer in the map form of the
// details member, which clients must accept.
//
// When each answers status false: only when the published agents turn the input away, that is,
// input unrelated to the agent and, for the treatment plan, input that names no species
// (docs/service.md, "Clinical agents"). Input that is relevant but that the small knowledge base cannot answer
// (nothing in it matches, a species it does not cover such as a rabbit, or a disease it holds
// only for another species) is still relevant: the answer is status true with an empty
// details map and summaries that say what was missing, because status false would tell the
// client the input was off-topic, which it was not.
import { CONDITIONS } from './knowledge/conditions/index.ts';
import {
  deniedSigns,
  namesCondition,
  normalizeText,
  prepare,
  rankConditions,
  signKey,
  type Prepared,
  type Ranked,
} from './knowledge/matching.ts';
import { assessRelevance } from './knowledge/relevance.ts';
import type { Condition, DdxSet, KbSpecies, TreatmentSet } from './knowledge/types.ts';
import type { DdxResponseWire, TreatmentPlanResponseWire } from '../shared/service/wire.ts';
import type { Species } from '../shared/species.ts';

/** Every summary the sandbox writes ends with this: it is not a clinical service. */
export const SANDBOX_NOTICE = '(Sandbox answer from a small built-in knowledge base, not a clinical service.)';

/**
 * An agent's answer as the wire declares it, split on `status` so that an accepted answer's
 * `response` is known to be there: an accepted input gets the details and summaries, a refused
 * one `response: null` (what a refusal holds is not published).
 */
export type AgentAnswer<W extends { status: boolean; reason: string; response: object | null }> =
  (W & { status: true; response: NonNullable<W['response']> }) | (W & { status: false; response: null });

export type DdxAnswerWire = AgentAnswer<DdxResponseWire>;
export type TreatmentPlanAnswerWire = AgentAnswer<TreatmentPlanResponseWire>;

const MAX_DIFFERENTIALS = 5;
const MIN_DIFFERENTIALS = 3;
// A differential past the third is listed only when it scores this share of the first.
const DIFFERENTIAL_SHARE = 0.35;
// How far being named in the best match's "commonly confused with" moves a differential up.
const CONFUSED_BONUS = 2;
const MAX_PLANS = 3;
// A plan for a second or third differential only when it scores this share of the first.
const PLAN_SHARE = 0.5;
const KB_SPECIES: readonly KbSpecies[] = ['dog', 'cat'];

const refuse = (reason: string) => ({ status: false as const, reason, response: null });

/** "a", "a and b", "a, b and c". */
export function joinWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** A condition name inside a sentence: "Diabetes mellitus" -> "diabetes mellitus"; "IMHA" stays. */
const inSentence = (name: string): string => (/^[A-Z][a-z]/.test(name) ? name[0]?.toLowerCase() + name.slice(1) : name);
const capitalise = (s: string): string => (s[0]?.toUpperCase() ?? '') + s.slice(1);

/** The first sentence of a knowledge-base text, for summaries. */
function firstSentence(text: string): string {
  const first = text.trim().split(/(?<=[.!?])\s+(?=[A-Z(])/)[0] ?? '';
  return /[.!?]$/.test(first) ? first : `${first}.`;
}

const kbSpecies = (species: readonly Species[]): KbSpecies[] => KB_SPECIES.filter((s) => species.includes(s));
const forSpecies = (conditions: readonly Condition[], species: readonly KbSpecies[]): Condition[] =>
  species.length === 0 ? [...conditions] : conditions.filter((c) => c.species.some((s) => species.includes(s)));

/** Map keys must be unique: a second condition with the same label gets its species added. */
function uniqueLabel(label: string, taken: Record<string, unknown>, condition: Condition): string {
  if (!(label in taken)) return label;
  const withSpecies = `${label} (${condition.species.join(', ')})`;
  return withSpecies in taken ? `${label} (${condition.id})` : withSpecies;
}

// The knowledge base is curated, but an answer must never carry an empty field.
const MISSING = 'Not recorded in the sandbox knowledge base.';
function filled<T extends object>(set: T): T {
  return Object.fromEntries(
    Object.entries(set).map(([k, v]) => [k, typeof v === 'string' && v.trim() !== '' ? v : MISSING]),
  ) as T;
}

/** Whom the answer is about, as a vet says it: "cats", "dogs or cats", "the patient". */
function patient(species: readonly Species[]): string {
  if (species.length === 0) return 'the patient';
  const names = species.map(plural);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

const SAME_PLURAL = new Set(['fish', 'sheep', 'cattle']);
/** "cat" -> "cats", "mouse" -> "mice", "fish" stays. */
function plural(species: Species): string {
  if (SAME_PLURAL.has(species)) return species;
  return species === 'mouse' ? 'mice' : `${species}s`;
}

/** What the knowledge base cannot say about named species it does not hold. */
function uncoveredSpecies(species: readonly Species[]): string | undefined {
  if (species.length === 0 || kbSpecies(species).length > 0) return undefined;
  return `The sandbox knowledge base covers dogs and cats only, so it holds nothing for a ${joinWords(species)}.`;
}

/** The content words of a condition's signs and names ("ear", "pruritus", "otitis"). */
function vocabulary(c: Condition): Set<string> {
  const text = normalizeText([c.name, ...c.aliases, ...c.signs.map(([term]) => term)].join(' '));
  const words = text
    .split(/[^a-z]+/)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));
  return new Set(words.filter((w) => w.length >= 3 && !COMMON_WORDS.has(w)));
}
// Words shared by signs of unrelated conditions.
const COMMON_WORDS = new Set(
  'the and for not out one with from after before during disease chronic acute recurrent elevated increased reduced canine feline syndrome positive sign loss pain infection inflammation large small'.split(
    ' ',
  ),
);

/**
 * The differentials to list, after the best match: the others in score order, with those the
 * best match's own text says it is commonly confused with a little ahead; up to five while
 * they score a fair share of the first. Fewer than three are topped up with the conditions it
 * is commonly confused with, then the weaker matches, then those its risk factors name, then
 * those whose signs share most words with its own, so a differential diagnosis always offers
 * an alternative.
 */
function pickDifferentials(ranked: readonly Ranked[], pool: readonly Condition[]): Condition[] {
  const [top, ...others] = ranked;
  if (!top) return [];
  const confusedText = prepare(top.condition.ddx.commonly_confused_with);
  const confused = pool.filter((c) => c !== top.condition && namesCondition(confusedText, c) === 'yes');
  const adjusted = (r: Ranked): number => r.score + (confused.includes(r.condition) ? CONFUSED_BONUS : 0);
  const rest = [...others].sort((a, b) => adjusted(b) - adjusted(a));
  const strong = rest.filter((r) => r.score >= top.score * DIFFERENTIAL_SHARE).map((r) => r.condition);
  const chosen = [top.condition, ...strong].slice(0, MAX_DIFFERENTIALS);
  if (chosen.length >= MIN_DIFFERENTIALS) return chosen;
  const risks = prepare(top.condition.ddx.risk_factors_predispositions);
  const mentioned = pool.filter((c) => c !== top.condition && namesCondition(risks, c) === 'yes');
  const topSigns = new Set(top.condition.signs.map(([term]) => signKey(term)));
  const topWords = vocabulary(top.condition);
  const shared = (c: Condition): number =>
    2 * c.signs.filter(([term]) => topSigns.has(signKey(term))).length +
    [...vocabulary(c)].filter((w) => topWords.has(w)).length;
  const similar = pool.filter((c) => c !== top.condition && shared(c) > 0).sort((a, b) => shared(b) - shared(a));
  const fill = [...confused, ...rest.map((r) => r.condition), ...mentioned, ...similar];
  for (const c of fill) if (chosen.length < MIN_DIFFERENTIALS && !chosen.includes(c)) chosen.push(c);
  return chosen;
}

/** The signs the history shows, as written, in order, each once (none inside another). */
function signsSeen(ranked: readonly Ranked[]): string[] {
  const spans = ranked.flatMap((r) => r.signs).sort((a, b) => a.start - b.start || b.end - a.end);
  const outer = spans.filter(
    (s) => !spans.some((o) => o !== s && o.start <= s.start && s.end <= o.end && o.end - o.start > s.end - s.start),
  );
  return [...new Set(outer.map((s) => s.text))];
}

function ddxSummaries(
  ranked: readonly Ranked[],
  chosen: readonly Condition[],
  species: readonly Species[],
  denied: readonly string[],
): { concise: string; summary: string } {
  const [first, ...rest] = chosen;
  if (!first) throw new Error('ddxSummaries needs a differential');
  const firstRanked = ranked.find((r) => r.condition === first);
  const restNames = rest.map((c) => inSentence(c.name));
  const alternatives = restNames.length === 1 ? 'as the main alternative' : 'as the main alternatives';
  const concise =
    `The most likely diagnosis is ${inSentence(first.name)}` +
    (restNames.length > 0 ? `, with ${joinWords(restNames)} ${alternatives}.` : '.');
  const seen = signsSeen(ranked);
  const parts = [
    seen.length > 0
      ? `From the signs described (${joinWords(seen.slice(0, 8))}), the most likely cause in ${patient(species)} is ${inSentence(first.name)}.`
      : `From the history given, the most likely cause in ${patient(species)} is ${inSentence(first.name)}.`,
    firstRanked?.named ? 'It is also the condition the history names.' : '',
    `The cause: ${firstSentence(first.ddx.cause_etiology)}`,
    restNames.length > 0
      ? `${restNames.length === 1 ? 'Another condition' : 'Other conditions'} that can look similar, and that the vet may want to rule out, ${restNames.length === 1 ? 'is' : 'are'} ${joinWords(restNames)}.`
      : '',
    `To confirm it: ${firstSentence(first.ddx.diagnosis_rule_outs)}`,
    `Outlook: ${firstSentence(first.ddx.prognosis)}`,
    denied.length > 0 ? `Signs the history says are absent (${joinWords(denied)}) were not counted.` : '',
    SANDBOX_NOTICE,
  ];
  return { concise, summary: parts.filter(Boolean).join(' ') };
}

/** `POST /ddx_agent_v2`: a differential diagnosis from a clinical history. */
export function answerDdx(input: string, conditions: readonly Condition[] = CONDITIONS): DdxAnswerWire {
  const relevance = assessRelevance(input, 'ddx', conditions);
  if (!relevance.relevant) return refuse(relevance.reason);
  const p = prepare(input);
  const species = relevance.species;
  const pool = forSpecies(conditions, kbSpecies(species));
  const ranked = uncoveredSpecies(species) ? [] : rankConditions(p, pool, species);
  const chosen = pickDifferentials(ranked, pool);
  const details: Record<string, DdxSet> = {};
  for (const c of chosen) details[uniqueLabel(c.name, details, c)] = filled({ ...c.ddx, name: c.ddx.name || c.name });
  if (chosen.length === 0) {
    const elsewhere = conditions.filter((c) => !pool.includes(c) && namesCondition(p, c) === 'yes');
    const why =
      uncoveredSpecies(species) ??
      (elsewhere.length > 0
        ? elsewhere.map((c) => notHeldFor(c, kbSpecies(species))).join(' ')
        : 'No condition in the sandbox knowledge base matches the signs in this history.');
    return {
      status: true,
      reason: relevance.reason,
      response: {
        'Differential Diagnosis Details': details,
        // A species the sandbox does not cover is said in one sentence: more signs would not help.
        'Plain English Concise':
          uncoveredSpecies(species) ?? 'No differential diagnosis could be drawn from this history.',
        'Plain English Summary': uncoveredSpecies(species)
          ? SANDBOX_NOTICE
          : `${why} Add the presenting signs, their duration, the examination findings and any test results, and ask again. ${SANDBOX_NOTICE}`,
      },
    };
  }
  const { concise, summary } = ddxSummaries(ranked, chosen, species, deniedSigns(p, pool));
  return {
    status: true,
    reason: relevance.reason,
    response: {
      'Differential Diagnosis Details': details,
      'Plain English Concise': concise,
      'Plain English Summary': summary,
    },
  };
}

/**
 * The conditions to plan for. A disease named (by name or alias) for a species it is held
 * for wins; a disease named only for another species gives no plan (and a sentence saying
 * so); with no disease named, the top one to three differentials of the history.
 */
function pickPlans(
  p: Prepared,
  conditions: readonly Condition[],
  species: readonly KbSpecies[],
  allSpecies: readonly Species[],
): { plans: Condition[]; named: boolean; note: string } {
  const named = conditions.filter((c) => namesCondition(p, c) === 'yes');
  const fit = forSpecies(named, species);
  const ranked = rankConditions(p, forSpecies(conditions, species), allSpecies);
  const score = (c: Condition): number => ranked.find((r) => r.condition === c)?.score ?? 0;
  if (fit.length > 0) {
    const plans = [...fit].sort((a, b) => score(b) - score(a)).slice(0, MAX_PLANS);
    const unfit = named.filter((c) => !fit.includes(c) && !fit.some((f) => f.name === c.name));
    return { plans, named: true, note: unfit.map((c) => notHeldFor(c, species)).join(' ') };
  }
  if (named.length > 0) return { plans: [], named: true, note: named.map((c) => notHeldFor(c, species)).join(' ') };
  const top = ranked[0];
  const plans = top
    ? ranked
        .slice(0, MAX_PLANS)
        .filter((r) => r.score >= top.score * PLAN_SHARE)
        .map((r) => r.condition)
    : [];
  return { plans, named: false, note: '' };
}

function notHeldFor(c: Condition, species: readonly KbSpecies[]): string {
  return `The sandbox knowledge base holds ${inSentence(c.name)} for ${joinWords(c.species.map((s) => `${s}s`))} only, not for ${joinWords(species.map((s) => `${s}s`))}, so it has nothing on it here.`;
}

function planSummaries(
  plans: readonly Condition[],
  named: boolean,
  note: string,
  species: readonly Species[],
): { concise: string; summary: string } {
  const [first] = plans;
  if (!first) throw new Error('planSummaries needs a plan');
  const t = first.treatment;
  const concise = named
    ? `For ${inSentence(first.name)} in ${patient(species)}, the usual plan is ${inSentence(t.treatment_plan_name)}.`
    : `No disease was named, so the plan follows the most likely diagnosis from the history, ${inSentence(first.name)}: ${inSentence(t.treatment_plan_name)}.`;
  const parts = [
    named
      ? ''
      : `These plans follow the most likely diagnoses from the history (${joinWords(plans.map((c) => inSentence(c.name)))}); the diagnosis should be confirmed before treating.`,
    ...plans.map(
      (c) =>
        `${capitalise(c.name)}. Goal: ${firstSentence(c.treatment.treatment_goal)} ` +
        `Medicines: ${firstSentence(c.treatment.medications)} Follow-up: ${firstSentence(c.treatment.regular_veterinary_monitoring)}`,
    ),
    `For the owner: ${firstSentence(t.owner_education)}`,
    note,
    SANDBOX_NOTICE,
  ];
  return { concise, summary: parts.filter(Boolean).join(' ') };
}

/** `POST /treatment_plan_agent_v2`: a treatment plan. The input must name the species. */
export function answerTreatmentPlan(
  input: string,
  conditions: readonly Condition[] = CONDITIONS,
): TreatmentPlanAnswerWire {
  const relevance = assessRelevance(input, 'treatment', conditions);
  if (!relevance.relevant) return refuse(relevance.reason);
  const species = relevance.species;
  if (species.length === 0) {
    return refuse(
      'The species must be named (for example dog or cat): a treatment plan depends on it. Add the species and, where known, breed, age, sex and neutered status, and the disease of interest.',
    );
  }
  const p = prepare(input);
  const covered = kbSpecies(species);
  const { plans, named, note } =
    covered.length > 0
      ? pickPlans(p, conditions, covered, species)
      : { plans: [], named: false, note: uncoveredSpecies(species) ?? '' };
  const details: Record<string, TreatmentSet> = {};
  for (const c of plans) {
    const label = c.treatment.diagnosis_name || c.name;
    details[uniqueLabel(label, details, c)] = filled({ ...c.treatment, diagnosis_name: label });
  }
  if (plans.length === 0) {
    const why =
      note || 'No condition in the sandbox knowledge base matches this history, and no disease it holds was named.';
    return {
      status: true,
      reason: relevance.reason,
      response: {
        'Treatment Plan Details': details,
        // A species the sandbox does not cover is said in one sentence, as for differentials.
        'Plain English Concise':
          covered.length === 0 && note ? note : 'No treatment plan could be drawn from this input.',
        'Plain English Summary':
          covered.length === 0 && note
            ? SANDBOX_NOTICE
            : `${why} Name the disease of interest, or give the presenting signs and findings, and ask again. ${SANDBOX_NOTICE}`,
      },
    };
  }
  const { concise, summary } = planSummaries(plans, named, note, species);
  return {
    status: true,
    reason: relevance.reason,
    response: { 'Treatment Plan Details': details, 'Plain English Concise': concise, 'Plain English Summary': summary },
  };
}
