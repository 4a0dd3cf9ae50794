// The one agent panel, driven by the agent's configuration (agents.tsx): the question form,
// main's warning when there is one, and the answer. The field has the cursor on each arrival,
// Ctrl/Cmd+K included, so the vet can start typing at once; Ctrl/Cmd+Enter sends. Arriving from
// a consult's note asks at once; arriving from an answer kept with a consult shows it again;
// either answer links back to the consult. An answer that arrives is brought into view: below a
// long case it would land under the fold, and the vet would wait on a screen that had changed.
import { useEffect, useRef } from 'react';
import { api } from '../../api.ts';
import { useNav, type FromConsult } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { cardsOf, type AgentResultBase, type AgentView } from './agent-config.ts';
import { AgentAnswer } from './agent-answer.tsx';
import { AgentForm } from './agent-form.tsx';
import { AGENTS } from './agents.tsx';
import { useAgents, type AgentName, type AgentSlot, type NoteSource } from './agents-store.ts';
import './agents.css';

export function AgentPanel({
  agent,
  prefill,
  consult,
}: {
  agent: AgentName;
  prefill?: string | undefined;
  consult?: FromConsult | undefined;
}) {
  // Keyed by the agent: going from one agent to another starts a fresh panel, as it did when each had its own.
  return <Panel key={agent} config={AGENTS[agent]} prefill={prefill} consult={consult} />;
}

// The arrivals already acted on: each navigation from a consult brings a new object, handled
// once however often effects run.
const handled = new WeakSet<FromConsult>();

/** What an arrival from a consult asks of the differentials panel: its note asked about, or a kept answer shown. */
async function arriveFrom(consult: FromConsult): Promise<void> {
  const source: NoteSource = { id: consult.id, patient: consult.patient };
  const store = useAgents.getState();
  if (consult.note !== undefined) {
    await store.askFromNote(AGENTS.ddx, source, consult.note);
    return;
  }
  if (consult.answerId === undefined) return;
  try {
    const kept = (await api.consults.answers({ id: consult.id })).find((a) => a.answerId === consult.answerId);
    if (kept) store.showKept(source, kept);
    else useNotifications.getState().push('error', 'That answer is no longer kept with the consult.');
  } catch (e) {
    useNotifications.getState().fail(e, 'Could not open the answer');
  }
}

/** Whether the vet is typing in a field: an answer arriving then must not take the cursor away. */
function typingIn(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !['button', 'submit', 'reset', 'checkbox', 'radio'].includes(el.type);
}

/** Scrolling that moves by itself only for a vet who has not asked the system for less motion. */
function scrollBehavior(): ScrollBehavior {
  const reduce =
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return reduce ? 'auto' : 'smooth';
}

const TIME = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

function Panel({
  config,
  prefill,
  consult,
}: {
  config: AgentView;
  prefill: string | undefined;
  consult: FromConsult | undefined;
}) {
  const { name, title, field: words, cards } = config;
  const slot: AgentSlot<AgentResultBase> = useAgents((s) => s[name]);
  const setInput = useAgents((s) => s.setInput);
  const ask = useAgents((s) => s.ask);
  // A new view object each time the vet navigates here (Ctrl/Cmd+K included), even when
  // already here: each arrival puts the cursor back in the field.
  const view = useNav((s) => s.view);
  const go = useNav((s) => s.go);
  const field = useRef<HTMLTextAreaElement>(null);
  const extras = slot.result && config.extras ? config.extras(slot.answered) : null;
  const answer = useRef<HTMLElement>(null);
  // What was on screen when the panel opened is not news; each result after it is an arrival.
  const shownAtOpen = useRef(slot.result);
  // The polite announcement, written straight into its live region: it is said, not rendered.
  const said = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (prefill !== undefined) useAgents.getState().setInput(name, prefill);
  }, [name, prefill]);
  useEffect(() => {
    field.current?.focus();
  }, [view]);
  useEffect(() => {
    if (consult === undefined || handled.has(consult)) return;
    handled.add(consult);
    void arriveFrom(consult);
  }, [consult]);
  // An arrival comes into view; the keyboard follows it there unless the vet is typing in a
  // field, who is told instead (politely, once) where it is. Focus on the answer reads it out
  // already, so it is not announced as well.
  const result = slot.result;
  const count = result ? cardsOf(result, cards.list).length : 0;
  useEffect(() => {
    if (!result || result === shownAtOpen.current) return;
    shownAtOpen.current = result;
    const el = answer.current;
    if (!el) return;
    el.scrollIntoView?.({ behavior: scrollBehavior(), block: 'start' });
    if (typingIn(document.activeElement)) {
      const what = count === 1 ? cards.fallbackTitle.toLowerCase() : cards.heading.toLowerCase();
      if (said.current) said.current.textContent = `${title} ready: ${count} ${what}. It is below the question.`;
    } else {
      el.focus({ preventScroll: true });
      if (said.current) said.current.textContent = '';
    }
  }, [result, count, title, cards]);

  const from = slot.from;
  const origin = from && (
    <>
      {from.patient ? `From the note of ${from.patient}` : 'From this consult’s note'}, asked{' '}
      {TIME.format(new Date(from.askedAt))} —{' '}
      <button type="button" className="link" onClick={() => go({ name: 'note', id: from.id })}>
        Open consult
      </button>
    </>
  );

  return (
    <section className="agents-panel" aria-labelledby={`${name}-title`}>
      <h1 id={`${name}-title`}>{title}</h1>
      <AgentForm
        label={words.label}
        hint={words.hint}
        placeholder={words.placeholder}
        sendLabel={words.sendLabel}
        {...(words.rows !== undefined && { rows: words.rows })}
        value={slot.input}
        onChange={(input) => setInput(name, input)}
        onSend={() => void ask(config)}
        onRetry={() => void ask(config, { anyway: slot.anyway })}
        busy={slot.busy}
        problem={slot.problem}
        error={slot.error}
        fieldRef={field}
      >
        {slot.warning && (
          <div className="notice notice-warning agent-species" role="alert">
            <p>{slot.warning}</p>
            <div className="row">
              <button type="button" onClick={() => field.current?.focus()}>
                Edit {words.label.toLowerCase()}
              </button>
              <button type="button" onClick={() => void ask(config, { anyway: true })} disabled={slot.busy}>
                Send anyway
              </button>
            </div>
          </div>
        )}
      </AgentForm>
      <p ref={said} className="visually-hidden agent-arrival" aria-live="polite" />
      {slot.result && (
        <AgentAnswer
          {...extras}
          ref={answer}
          result={slot.result}
          answered={slot.answered}
          origin={origin}
          items={cardsOf(slot.result, cards.list)}
          fields={cards.fields}
          listHeading={cards.heading}
          fallbackTitle={cards.fallbackTitle}
          emptyMessage={cards.empty}
          busy={slot.busy}
        />
      )}
    </section>
  );
}
