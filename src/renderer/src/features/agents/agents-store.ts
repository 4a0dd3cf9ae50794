// What each agent panel holds between visits: the vet's text, the request in flight, and the
// last answer. Kept outside the components so that switching views and coming back keeps
// both; cleared when the session ends, so the next person at the exam-room PC sees none of it.
import { create } from 'zustand';
import { MAX_AGENT_INPUT } from '../../../../shared/ipc-client.ts';
import type { DdxResult, MedicationResult, TreatmentPlanResult } from '../../../../shared/service/index.ts';
import { api, ApiCallError } from '../../api.ts';

export interface Failure {
  code: string;
  message: string;
  retryable: boolean;
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
}

export interface TreatmentSlot extends AgentSlot<TreatmentPlanResult> {
  /** Main's warning that the case details name no species; lasts until the next request. */
  needsSpecies: string | null;
  /** Whether the last request was sent without a species on purpose (repeated by Try again). */
  withoutSpecies: boolean;
}

interface AgentsState {
  ddx: AgentSlot<DdxResult>;
  treatment: TreatmentSlot;
  medication: AgentSlot<MedicationResult>;
  setDdxInput(input: string): void;
  setTreatmentInput(input: string): void;
  setMedicationInput(input: string): void;
  askDdx(): Promise<void>;
  askTreatment(options?: { withoutSpecies?: boolean }): Promise<void>;
  askMedication(): Promise<void>;
}

const emptySlot = { input: '', problem: null, busy: false, error: null, result: null, answered: '' };
const initial = () => ({
  ddx: { ...emptySlot },
  treatment: { ...emptySlot, needsSpecies: null, withoutSpecies: false },
  medication: { ...emptySlot },
});

// Bumped when the session ends: an answer that arrives afterwards belongs to nobody on screen.
let generation = 0;

function failureOf(error: unknown): Failure {
  if (error instanceof ApiCallError) return { code: error.code, message: error.message, retryable: error.retryable };
  return { code: 'internal', message: error instanceof Error ? error.message : String(error), retryable: false };
}

function problemOf(input: string, what: string, example = ''): string | null {
  if (input.trim() === '') return `Type or paste ${what} first${example}.`;
  if (input.length > MAX_AGENT_INPUT) {
    return `That is ${input.length.toLocaleString()} characters; the service takes at most ${MAX_AGENT_INPUT.toLocaleString()}. Shorten it and try again.`;
  }
  return null;
}

export const useAgents = create<AgentsState>((set, get) => {
  const patchDdx = (patch: Partial<AgentSlot<DdxResult>>) => set((s) => ({ ddx: { ...s.ddx, ...patch } }));
  const patchTreatment = (patch: Partial<TreatmentSlot>) => set((s) => ({ treatment: { ...s.treatment, ...patch } }));
  const patchMedication = (patch: Partial<AgentSlot<MedicationResult>>) =>
    set((s) => ({ medication: { ...s.medication, ...patch } }));
  return {
    ...initial(),
    setDdxInput(input) {
      patchDdx({ input, problem: null });
    },
    setTreatmentInput(input) {
      patchTreatment({ input, problem: null });
    },
    setMedicationInput(input) {
      patchMedication({ input, problem: null });
    },
    async askDdx() {
      const { input, busy } = get().ddx;
      if (busy) return;
      const problem = problemOf(input, 'a clinical history');
      if (problem) return patchDdx({ problem, error: null });
      const mine = generation;
      patchDdx({ busy: true, problem: null, error: null });
      try {
        const result = await api.agents.ddx({ input });
        if (mine === generation) patchDdx({ busy: false, result, answered: input.trim() });
      } catch (e) {
        if (mine === generation) patchDdx({ busy: false, error: failureOf(e) });
      }
    },
    async askTreatment(options = {}) {
      const { input, busy } = get().treatment;
      if (busy) return;
      const problem = problemOf(input, 'the case details');
      if (problem) return patchTreatment({ problem, error: null });
      const withoutSpecies = options.withoutSpecies ?? false;
      const mine = generation;
      patchTreatment({ busy: true, problem: null, error: null, needsSpecies: null, withoutSpecies });
      try {
        const answer = await api.agents.treatmentPlan(
          withoutSpecies ? { input, allowWithoutSpecies: true } : { input },
        );
        if (mine !== generation) return;
        if (answer.kind === 'needs_species') patchTreatment({ busy: false, needsSpecies: answer.message });
        else patchTreatment({ busy: false, result: answer.result, answered: input.trim() });
      } catch (e) {
        if (mine === generation) patchTreatment({ busy: false, error: failureOf(e) });
      }
    },
    async askMedication() {
      const { input, busy } = get().medication;
      if (busy) return;
      const problem = problemOf(input, 'the drug and the species', ' (for example: meloxicam, dog)');
      if (problem) return patchMedication({ problem, error: null });
      const mine = generation;
      patchMedication({ busy: true, problem: null, error: null });
      try {
        const result = await api.agents.medication({ input });
        if (mine === generation) patchMedication({ busy: false, result, answered: input.trim() });
      } catch (e) {
        if (mine === generation) patchMedication({ busy: false, error: failureOf(e) });
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
