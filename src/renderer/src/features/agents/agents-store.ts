// What each agent panel holds between visits: the vet's text, the request in flight, and the
// last answer. Kept outside the components so that switching views and coming back keeps
// both; cleared when the session ends, so the next person at the exam-room PC sees none of it.
// One slot per agent, all asked the same way: the agent's configuration (agents.tsx) brings
// its call and its words for an empty field.
import { create } from 'zustand';
import { MAX_AGENT_INPUT } from '../../../../shared/ipc-client.ts';
import type { DdxResult, MedicationResult, TreatmentPlanResult } from '../../../../shared/service/index.ts';
import { api, ApiCallError } from '../../api.ts';

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
}

type Slots = { [A in AgentName]: AgentSlot<AgentResults[A]> };

interface AgentsState extends Slots {
  setInput(name: AgentName, input: string): void;
  ask<R>(agent: AgentCall<R>, options?: { anyway?: boolean }): Promise<void>;
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
};
const initial = (): Slots => ({ ddx: { ...emptySlot }, treatment: { ...emptySlot }, medication: { ...emptySlot } });

// Bumped when the session ends: an answer that arrives afterwards belongs to nobody on screen.
let generation = 0;

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
      patch(name, { input, problem: null });
    },
    async ask(agent, options = {}) {
      const { name } = agent;
      const { input, busy } = get()[name];
      if (busy) return;
      const problem = problemOf(input, agent.emptyProblem);
      if (problem) return patch(name, { problem, error: null });
      const anyway = options.anyway ?? false;
      const mine = generation;
      patch(name, { busy: true, problem: null, error: null, warning: null, anyway });
      try {
        const reply = await agent.call(input, anyway);
        if (mine !== generation) return;
        // One outcome on screen at a time: a warning or a failure replaces the answer to an earlier question.
        if ('warning' in reply) patch(name, { busy: false, warning: reply.warning, result: null, answered: '' });
        else patch(name, { busy: false, result: reply.result, answered: input.trim() });
      } catch (e) {
        if (mine === generation) patch(name, { busy: false, error: failureOf(e), result: null, answered: '' });
      }
    },
  };
});

/** Forgets every text and answer; an answer still on its way is dropped when it arrives. */
export function clearAgents(): void {
  generation++;
  useAgents.setState(initial());
}

api.on('session:changed', (session) => {
  if (!session.signedIn) clearAgents();
});
