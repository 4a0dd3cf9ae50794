// An agent's answer as the vet reads it: the plain-English lines first, then one card per
// diagnosis or plan. An input the service turned away (status false) is shown with its reason,
// never as an empty result.
import type { ReactNode, Ref } from 'react';
import { copyText } from '../../copy-text.ts';
import { useNotifications } from '../../stores/notifications.ts';
import {
  answerText,
  CONCISE_HEADING,
  conciseText,
  summaryParagraphs,
  summaryText,
  SUMMARY_HEADING,
} from './answer-text.ts';
import { ResultCards, type CardField, type CardItem, type RenderValue } from './result-cards.tsx';
import './agents.css';

export interface AgentAnswerProps<K extends string> {
  result: { status: boolean; reason: string; concise?: string; summary?: string };
  /** The text this answers, shown so that an edited field is not mistaken for it. */
  answered: string;
  /** Where the question came from (a consult's note), said instead of quoting it. */
  origin?: ReactNode;
  items: readonly CardItem<K>[];
  fields: readonly CardField<K>[];
  /** "Possible diagnoses", "Treatment plans". */
  listHeading: string;
  /** Title of a card the service gave no name: "Diagnosis" gives "Diagnosis 2". */
  fallbackTitle: string;
  /** Shown when the service accepted the input but listed nothing. */
  emptyMessage: string;
  /** A newer request is on its way: this answer may be replaced. */
  busy: boolean;
  /** Shown above the cards (the treatment panel's word on its dose totals). */
  beforeCards?: ReactNode;
  renderValue?: RenderValue<K>;
  /** A value as Copy all writes it; as the service wrote it by default. */
  textValue?: ((key: K, value: string) => string) | undefined;
  /** The answer's region, which the panel brings into view (and may focus) when it arrives. */
  ref?: Ref<HTMLElement> | undefined;
}

const QUOTE_MAX = 160;

function quote(text: string): string {
  const one = text.replace(/\s+/g, ' ');
  return one.length > QUOTE_MAX ? `${one.slice(0, QUOTE_MAX - 1)}…` : one;
}

async function copy(text: string, done: string) {
  const { push, fail } = useNotifications.getState();
  try {
    await copyText(text);
    push('success', done);
  } catch (e) {
    fail(e, 'Could not copy');
  }
}

export function AgentAnswer<K extends string>({
  result,
  answered,
  origin,
  items,
  fields,
  listHeading,
  fallbackTitle,
  emptyMessage,
  busy,
  beforeCards,
  renderValue,
  textValue,
  ref,
}: AgentAnswerProps<K>) {
  const summary = summaryText(result);
  const concise = conciseText(result.concise);
  const paragraphs = summaryParagraphs(result.summary, result.concise);
  return (
    // Focusable from the script only: the panel moves the keyboard here when an answer arrives.
    <section ref={ref} className="agent-answer" aria-label="Answer" aria-busy={busy} tabIndex={-1}>
      {origin ? (
        <p className="muted agent-answered">{origin}</p>
      ) : (
        answered && <p className="muted agent-answered">Answer to: “{quote(answered)}”</p>
      )}
      {!result.status && (
        <p className="notice notice-warning" role="status">
          The service could not answer this: {result.reason || 'it gave no reason.'}
        </p>
      )}
      {concise && (
        <>
          <h2>{CONCISE_HEADING}</h2>
          <p className="agent-concise">{concise}</p>
        </>
      )}
      {paragraphs.length > 0 && (
        <>
          <h2>{SUMMARY_HEADING}</h2>
          <div className="agent-summary">
            {paragraphs.map((p, i) => (
              <p key={i}>{p}</p>
            ))}
          </div>
        </>
      )}
      {/* An accepted answer's reason is the service's own check of the input ("Relevant to
          veterinary medicine: …"): nothing for the vet, so it is not shown. */}
      {result.status && (
        <>
          <div className="row agent-copy">
            {summary && (
              <button type="button" onClick={() => void copy(summary, 'Summary copied.')}>
                Copy summary
              </button>
            )}
            <button
              type="button"
              onClick={() =>
                void copy(
                  answerText(result, listHeading, items, fields, fallbackTitle, textValue),
                  'Whole answer copied.',
                )
              }
            >
              Copy all
            </button>
          </div>
          <h2>
            {listHeading} <span className="muted">({items.length})</span>
          </h2>
          {items.length > 0 && beforeCards}
          {items.length > 0 ? (
            <ResultCards items={items} fields={fields} fallbackTitle={fallbackTitle} renderValue={renderValue} />
          ) : (
            <p className="notice">{emptyMessage}</p>
          )}
          <p className="muted agent-disclaimer">Decision support only — check against your own clinical judgement.</p>
        </>
      )}
    </section>
  );
}
