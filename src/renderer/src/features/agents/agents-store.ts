// What each agent panel holds between visits: the vet's text, the request in flight, and the
// last answer. Kept outside the components so that switching views and coming back keeps
// both; cleared when the session ends, so the next person at the exam-room PC sees none of it.
// One slot per agent, all asked the same way: the agent's configuration (agents.tsx) brings
// its call and its words for an empty field. Differentials asked from a consult's note go to
// main with the consult, which keeps the answer with it; the slot then says whose note it was.
import { create } from 'zustand';
import { MAX_AGENT_INPUT } from '../../../../shared/ipc-client.ts';
import type { DdxResult, MedicationResult, TreatmentPlanResult } from '../../../../shared/service/index.ts';
import type { KeptAnswer, SessionInfo } from '../../../../shared/ipc.ts';
import { api, ApiCallError } from '../../api.ts';
import { historyAndExamination } from '../../../../shared/note/index.ts';
import { plainNoteText } from './note-text.ts';

export interface Failure {
  code: string;
  message: string;
  retryable: boolean;
}

/** The agents, by the name of the view that shows each. */
export interface AgentResults {
  ddx: DdxResult;
  treatment: TreatmentPlanResult;
  medication: MedicationResult;
}
export type AgentName = keyof AgentResults;

/** What a call answers: the agent's result, or main's warning instead of sending (no species named). */
export type AgentReply<R> = { result: R } | { warning: string };

/** What the store needs of an agent to ask it. */
export interface AgentCall<R> {
  name: AgentName;
  /** Why an empty field was not sent: "Type or paste a clinical history first." */
  emptyProblem: string;
  /** `anyway`: send despite main's warning. */
  call(input: string, anyway: boolean): Promise<AgentReply<R>>;
}

export interface AgentSlot<R> {
  input: string;
  /** Why the text was not sent (empty, too long); shown under the field. */
  problem: string | null;
  busy: boolean;
  error: Failure | null;
  result: R | null;
  /** The text the shown result answers: the field may have been edited since. */
  answered: string;
  /** Main's warning instead of an answer (the case details name no species); lasts until the next request. */
  warning: string | null;
  /** Whether the last request was sent despite the warning on purpose (repeated by Try again). */
  anyway: boolean;
  /** The consult whose note the field holds: asking sends it with the consult, which keeps the answer. */
  source: NoteSource | null;
  /** The consult the shown answer is kept with, and when it was asked. */
  from: (NoteSource & { askedAt: string }) | null;
}

/** A consult whose note is asked about. */
export interface NoteSource {
  id: string;
  patient: string;
}

type Slots = { [A in AgentName]: AgentSlot<AgentResults[A]> };

interface AgentsState extends Slots {
  setInput(name: AgentName, input: string): void;
  ask<R>(agent: AgentCall<R>, options?: { anyway?: boolean }): Promise<void>;
  /** Puts the consult's note, as plain text, in the differentials field and asks at once. */
  askFromNote(agent: AgentCall<DdxResult>, source: NoteSource, note: string): Promise<void>;
  /** Shows an answer kept with a consult, as it was given. */
  showKept(source: NoteSource, answer: KeptAnswer): void;
}

const emptySlot = {
  input: '',
  problem: null,
  busy: false,
  error: null,
  result: null,
  answered: '',
  warning: null,
  anyway: false,
  source: null,
  from: null,
};
const initial = (): Slots => ({ ddx: { ...emptySlot }, treatment: { ...emptySlot }, medication: { ...emptySlot } });

// Bumped when the session ends: an answer that arrives afterwards belongs to nobody on screen.
let generation = 0;
// Each slot's latest request: an answer to an earlier one, still on its way, is not shown over it.
const latest: Record<AgentName, number> = { ddx: 0, treatment: 0, medication: 0 };

function failureOf(error: unknown): Failure {
  if (error instanceof ApiCallError) return { code: error.code, message: error.message, retryable: error.retryable };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error), retryable: false };
}

function problemOf(input: string, empty: string): string | null {
  if (input.trim() === '') return empty;
  if (input.length > MAX_AGENT_INPUT) {
    return `That is ${input.length.toLocaleString()} characters; the service takes at most ${MAX_AGENT_INPUT.toLocaleString()}. Shorten it and try again.`;
  }
  return null;
}

export const useAgents = create<AgentsState>((set, get) => {
  const patch = (name: AgentName, change: Partial<AgentSlot<unknown>>) =>
    set((s) => ({ [name]: { ...s[name], ...change } }));
  return {
    ...initial(),
    setInput(name, input) {
      // Edited by the vet: no longer the consult's note as it stands.
      patch(name, { input, problem: null, source: null });
    },
    async ask(agent, options = {}) {
      const { name } = agent;
      const { input, busy, source } = get()[name];
      if (busy) return;
      const problem = problemOf(input, agent.emptyProblem);
      if (problem) return patch(name, { problem, error: null });
      const anyway = options.anyway ?? false;
      const mine = generation;
      const request = ++latest[name];
      const current = () => mine === generation && request === latest[name];
      patch(name, { busy: true, problem: null, error: null, warning: null, anyway });
      try {
        if (source !== null && name === 'ddx') {
          const kept = await api.consults.askDdx({ id: source.id, input });
          if (current())
            patch(name, {
              busy: false,
              result: kept.result,
              answered: kept.question,
              from: { ...source, askedAt: kept.askedAt },
            });
          return;
        }
        const reply = await agent.call(input, anyway);
        if (!current()) return;
        // One outcome on screen at a time: a warning or a failure replaces the answer to an earlier question.
        if ('warning' in reply)
          patch(name, { busy: false, warning: reply.warning, result: null, answered: '', from: null });
        else patch(name, { busy: false, result: reply.result, answered: input.trim(), from: null });
      } catch (e) {
        if (current()) patch(name, { busy: false, error: failureOf(e), result: null, answered: '', from: null });
      }
    },
    async askFromNote(agent, source, note) {
      // A request already on its way is overtaken: this one is what the vet asked for now. Only
      // the history and examination go: the assessment and plan would be read as signs.
      patch(agent.name, { input: plainNoteText(historyAndExamination(note)), source, busy: false });
      await get().ask(agent);
    },
    showKept(source, answer) {
      latest.ddx++;
      patch('ddx', {
        input: answer.question,
        source: null,
        busy: false,
        problem: null,
        error: null,
        warning: null,
        result: answer.result,
        answered: answer.question,
        from: { ...source, askedAt: answer.askedAt },
      });
    },
  };
});

/** Forgets every text and answer; an answer still on its way is dropped when it arrives. */
export function clearAgents(): void {
  generation++;
  useAgents.setState(initial());
}

/** Main's `session:changed`: signed out, the panels forget what was asked. */
export function agentsSessionChanged(session: SessionInfo): void {
  if (!session.signedIn) clearAgents();
}

/** Main's `consult:removed`: its kept answers go with it; the answer on screen stays, no longer linked to it. */
export function agentsConsultRemoved({ id }: { id: string }): void {
  const { source, from } = useAgents.getState().ddx;
  if (source?.id === id || from?.id === id)
    useAgents.setState((s) => ({
      ddx: { ...s.ddx, source: source?.id === id ? null : source, from: from?.id === id ? null : from },
    }));
}
