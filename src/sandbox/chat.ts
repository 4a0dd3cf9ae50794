// The sandbox's clinical assistant (`POST {agents_url}/chat`, docs/service.md): a memory per
// conversation, each an organization's own, and answers drawn from the conversation's context
// alone (the consult's note the app sends). It quotes the note's figures (weights, temperatures,
// heart and breathing rates, doses, each per-kilogram dose worked out for the note's weight),
// says plainly what the note does not say, and reads a follow-up with the turn before it. No
// model: plain rules over the note's text, so tests can tell what it must say.
import { randomBytes } from 'node:crypto';
import { doseMismatches, findFigures, perKgTotals, statedWeightKg, type Figure } from '../shared/note/figures.ts';
import { answerDdx, SANDBOX_NOTICE } from './agents.ts';

/** The most conversations remembered per organization; the least recently used is forgotten first. */
const MAX_CONVERSATIONS_PER_ORG = 500;
/** The most turns remembered per conversation. */
const MAX_TURNS = 50;

export interface ChatConversation {
  context: string;
  turns: { message: string; output: string }[];
}

/** The conversations the assistant remembers, per organization: another one's id is not found. */
export class ChatMemory {
  private readonly byOrg = new Map<string, Map<string, ChatConversation>>();

  private org(orgId: string): Map<string, ChatConversation> {
    let conversations = this.byOrg.get(orgId);
    if (!conversations) this.byOrg.set(orgId, (conversations = new Map()));
    return conversations;
  }

  start(orgId: string, context: string): { id: string; conversation: ChatConversation } {
    const conversations = this.org(orgId);
    const id = `conv_${randomBytes(12).toString('hex')}`;
    const conversation: ChatConversation = { context, turns: [] };
    conversations.set(id, conversation);
    while (conversations.size > MAX_CONVERSATIONS_PER_ORG) {
      const oldest = conversations.keys().next().value;
      if (oldest === undefined) break;
      conversations.delete(oldest);
    }
    return { id, conversation };
  }

  /** The organization's conversation `id`, now the most recently used; undefined when not known. */
  find(orgId: string, id: string): ChatConversation | undefined {
    const conversations = this.byOrg.get(orgId);
    const conversation = conversations?.get(id);
    if (conversations && conversation) {
      conversations.delete(id);
      conversations.set(id, conversation);
    }
    return conversation;
  }

  remember(conversation: ChatConversation, message: string, output: string): void {
    conversation.turns.push({ message, output });
    if (conversation.turns.length > MAX_TURNS) conversation.turns.splice(0, conversation.turns.length - MAX_TURNS);
  }

  /** Forgets every conversation (a restarted service, for the app's tests); how many there were. */
  forget(): number {
    let n = 0;
    for (const conversations of this.byOrg.values()) n += conversations.size;
    this.byOrg.clear();
    return n;
  }
}

// Words of a question that name no clinical subject: a question's own words are not looked for in the note.
const COMMON = new Set(
  `about above after again against also any anything because been before being between both cause check
  could does doing doses dosing during each either enough every from give given going have having here
  into just keep know like likely look make many might more most much must need note notes other owner
  owners over plan please really right said safe same should show signs since some still such sure take
  tell than that their them then there these they thing think this those through under until very want
  watch were what when where which while will with within would your yours again earlier asked answer
  differentials differential diagnosis diagnoses doses today tomorrow home case patient value values level
  levels okay fine worry worried`.split(/\s+/),
);

/** The subjects a message asks about that the note never names (at most three). */
function unknownSubjects(message: string, context: string): string[] {
  const note = context.toLowerCase();
  const words = message.toLowerCase().match(/[a-z][a-z-]{3,}/g) ?? [];
  const missing: string[] = [];
  for (const word of words) {
    if (COMMON.has(word) || missing.includes(word)) continue;
    // A plural or another ending of a word the note has is the note's word.
    const stem = word.length > 6 ? word.slice(0, word.length - 2) : word.replace(/s$/, '');
    if (!note.includes(stem)) missing.push(word);
  }
  return missing.slice(0, 3);
}

const KIND_WORDS: Record<Figure['kind'], string> = {
  weight: 'weight',
  temperature: 'temperature',
  rate: 'rate',
  dose: 'dose',
  drug: 'drug',
};

function list(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "heart rate 120 bpm", "weight 12.4 kg": the figure with the words just before it on its line. */
function quoted(context: string, f: Figure): string {
  const lineStart = context.lastIndexOf('\n', f.start - 1) + 1;
  const from = Math.max(lineStart, f.start - 30);
  let before = context.slice(from, f.start);
  // A window that starts inside a word drops that word's end.
  if (from > lineStart) before = before.replace(/^\S*\s/, '');
  const label = (before.split(/[.;,:(]/).at(-1) ?? '').trim();
  if (label === '' || !/^[A-Za-z][A-Za-z ]*$/.test(label)) return `${KIND_WORDS[f.kind]} ${f.text}`;
  const word = /^[A-Z][a-z]/.test(label) ? label[0]!.toLowerCase() + label.slice(1) : label;
  return `${word} ${f.text}`;
}

function figuresOf(context: string, kinds: readonly Figure['kind'][]): string[] {
  return findFigures(context)
    .filter((f) => kinds.includes(f.kind))
    .map((f) => quoted(context, f));
}

/** The doses of the note, each with the drug named before it on its line and where it is. */
function dosesOf(context: string): { text: string; start: number }[] {
  const figures = findFigures(context);
  return figures
    .filter((f) => f.kind === 'dose')
    .map((dose) => {
      const lineStart = context.lastIndexOf('\n', dose.start - 1) + 1;
      const drug = figures.filter((f) => f.kind === 'drug' && f.start >= lineStart && f.end <= dose.start).at(-1);
      return { text: drug ? `${drug.text.toLowerCase()} ${dose.text}` : dose.text, start: dose.start };
    });
}

function watchFor(context: string): string {
  const vitals = figuresOf(context, ['temperature', 'rate']);
  const drugs = [
    ...new Set(
      findFigures(context)
        .filter((f) => f.kind === 'drug')
        .map((f) => f.text.toLowerCase()),
    ),
  ];
  const parts = [
    'Tell the owner to call the clinic if the patient stops eating for more than a day, vomits or has diarrhoea again, becomes dull or weak, or breathes faster than usual at rest.',
  ];
  if (vitals.length > 0) parts.push(`The note recorded ${list(vitals)}: a change from these is worth a call.`);
  if (drugs.length > 0)
    parts.push(
      `While on ${list(drugs)}: any vomiting, black stools, a poor appetite or unusual sleepiness is a reason to stop and call.`,
    );
  return parts.join(' ');
}

function differentials(context: string): string {
  const answer = answerDdx(context);
  const details = answer.status ? answer.response['Differential Diagnosis Details'] : {};
  const names = Object.keys(details as Record<string, unknown>).slice(0, 5);
  if (names.length === 0) return 'The note does not describe enough signs for me to list differentials.';
  return `From the signs in the note, the differentials to consider are ${list(names)}.`;
}

// The totals are the app's own arithmetic (perKgTotals), the same the treatment-plan view shows,
// so the assistant and the view never give two totals for one dose.
function doseCheck(context: string): string {
  const doses = dosesOf(context);
  if (doses.length === 0) return 'The note gives no doses, so there is nothing in it for me to check.';
  const kg = statedWeightKg(context);
  if (kg === null)
    return `The plan in the note gives ${list(doses.map((d) => d.text))}. The note gives no weight, so I cannot work out a total dose. Check each against the formulary for this species before it is given.`;
  const totals = perKgTotals(context, kg);
  const worked = doses.map((d) => {
    const total = totals.find((t) => t.start === d.start);
    return total ? `${d.text} × ${kg} kg = ${total.total}` : d.text;
  });
  const wrong = doseMismatches(context, kg).map((m) => `${m.says}: check it.`);
  return [
    `With the note's weight ${kg} kg, the plan gives ${list(worked)}.`,
    ...wrong,
    'Check each against the formulary for this species before it is given.',
  ].join(' ');
}

function summary(context: string): string {
  const figures = [...figuresOf(context, ['weight', 'temperature', 'rate']), ...dosesOf(context).map((d) => d.text)];
  return figures.length > 0
    ? `The note records ${list(figures)}.`
    : 'The note records no weight, temperature, rate or dose.';
}

const FOLLOW_UP = /^(?:and|also|what about|how about|then|so|but)\b/i;

/** A message that reads as going on from the one before: "And her weight?", "Her weight?". */
function isFollowUp(message: string): boolean {
  const words = message.trim().split(/\s+/);
  return FOLLOW_UP.test(message.trim()) || words.length <= 3;
}

/** The assistant's answer to one message of a conversation, from its context and its earlier turns. */
export function answerTurn(conversation: ChatConversation, message: string): string {
  const { context } = conversation;
  const asked = message.toLowerCase();
  const parts: string[] = [];
  const previous = conversation.turns.at(-1);
  if (context.trim() === '') {
    parts.push('I was given no note for this conversation, so I do not know this case.');
  } else {
    if (/\bwatch\b|owner|monitor|at home|discharge/.test(asked)) parts.push(watchFor(context));
    else if (/differential|ddx|diagnos/.test(asked)) parts.push(differentials(context));
    else if (/\bdos(e|es|ing)\b|mg\b|how much/.test(asked)) parts.push(doseCheck(context));
    else parts.push(summary(context));
    const unknown = unknownSubjects(message, context);
    if (unknown.length > 0)
      parts.push(
        `The note does not say anything about ${list(unknown)}, so I do not know; check the patient's record.`,
      );
  }
  // The answer comes first; the question before is named only when this one leans on it
  // ("And her weight?"), never as an opening the vet must read past.
  if (previous && isFollowUp(message))
    parts.push(`Following on from your question “${previous.message.slice(0, 120).trim()}”.`);
  parts.push(SANDBOX_NOTICE);
  return parts.join(' ');
}
