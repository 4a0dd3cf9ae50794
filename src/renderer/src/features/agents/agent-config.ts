// What makes one agent's panel different from another's: its title, its field's words, its
// call, and how its answer's cards are made. The panel (agent-panel.tsx) is the same for all;
// the three configurations are in agents.tsx.
import type { ReactNode } from 'react';
import type { AgentCall } from './agents-store.ts';
import type { CardField, CardItem, RenderValue } from './result-cards.tsx';

/** What every agent's result has, whatever its cards. */
export interface AgentResultBase {
  status: boolean;
  reason: string;
  concise?: string;
  summary?: string;
}

/** Added to an answer from the text it answers (the treatment plan's dose totals). */
export interface AnswerExtras {
  renderValue: RenderValue<string>;
  beforeCards: ReactNode;
  /** A value as Copy all writes it, when it is arranged for the question (the asked species first). */
  textValue?: (key: string, value: string) => string;
}

/** The member of a result that holds its cards: `diagnoses`, `plans`, `medications`. */
export type CardList<R> = { [P in keyof R]-?: R[P] extends readonly CardItem<string>[] ? P : never }[keyof R];

/** Any agent's configuration, as the panel reads it. */
export interface AgentView extends AgentCall<AgentResultBase> {
  /** The panel's heading, `<h1>`. */
  title: string;
  field: {
    label: string;
    hint: string;
    placeholder: string;
    sendLabel: string;
    /** Lines of the text field: a history needs room, a drug and species one line or two. */
    rows?: number;
  };
  cards: {
    list: string;
    fields: readonly CardField<string>[];
    /** "Possible diagnoses", "Treatment plans". */
    heading: string;
    /** Title of a card the service gave no name: "Diagnosis" gives "Diagnosis 2". */
    fallbackTitle: string;
    /** Shown when the service accepted the input but listed nothing. */
    empty: string;
  };
  extras?(answered: string): AnswerExtras | null;
}

/** One agent's configuration, its call and its list of cards checked against its result. */
export interface AgentConfig<R extends AgentResultBase> extends Omit<AgentView, 'call' | 'cards'>, AgentCall<R> {
  cards: AgentView['cards'] & { list: CardList<R> };
}

/** The cards of a result, from the member its configuration names. */
export function cardsOf(result: AgentResultBase, list: string): readonly CardItem<string>[] {
  return (result as unknown as Partial<Record<string, readonly CardItem<string>[]>>)[list] ?? [];
}
