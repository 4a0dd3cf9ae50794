// The one agent panel, driven by the agent's configuration (agents.tsx): the question form,
// main's warning when there is one, and the answer. The field has the cursor on each arrival,
// Ctrl/Cmd+K included, so the vet can start typing at once; Ctrl/Cmd+Enter sends.
import { useEffect, useRef } from 'react';
import { useNav } from '../../stores/nav.ts';
import { cardsOf, type AgentResultBase, type AgentView } from './agent-config.ts';
import { AgentAnswer } from './agent-answer.tsx';
import { AgentForm } from './agent-form.tsx';
import { AGENTS } from './agents.tsx';
import { useAgents, type AgentName, type AgentSlot } from './agents-store.ts';
import './agents.css';

export function AgentPanel({ agent, prefill }: { agent: AgentName; prefill?: string | undefined }) {
  // Keyed by the agent: going from one agent to another starts a fresh panel, as it did when each had its own.
  return <Panel key={agent} config={AGENTS[agent]} prefill={prefill} />;
}

function Panel({ config, prefill }: { config: AgentView; prefill: string | undefined }) {
  const { name, title, field: words, cards } = config;
  const slot: AgentSlot<AgentResultBase> = useAgents((s) => s[name]);
  const setInput = useAgents((s) => s.setInput);
  const ask = useAgents((s) => s.ask);
  // A new view object each time the vet navigates here (Ctrl/Cmd+K included), even when
  // already here: each arrival puts the cursor back in the field.
  const view = useNav((s) => s.view);
  const field = useRef<HTMLTextAreaElement>(null);
  const extras = slot.result && config.extras ? config.extras(slot.answered) : null;

  useEffect(() => {
    if (prefill !== undefined) useAgents.getState().setInput(name, prefill);
  }, [name, prefill]);
  useEffect(() => {
    field.current?.focus();
  }, [view]);

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
      {slot.result && (
        <AgentAnswer
          {...extras}
          result={slot.result}
          answered={slot.answered}
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
