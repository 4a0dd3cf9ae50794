// The differential-diagnosis agent (`POST /ddx_agent_v2`): a clinical history in, candidate
// diagnoses out. Ctrl/Cmd+K opens it from anywhere with the field focused, so the vet can start
// typing at once; a finished note arrives here as `prefill`.
import { useEffect, useRef } from 'react';
import { DDX_FIELDS } from '../../../../shared/service/fields.ts';
import { useNav } from '../../stores/nav.ts';
import { AgentAnswer } from './agent-answer.tsx';
import { AgentForm } from './agent-form.tsx';
import { useAgents } from './agents-store.ts';
import './agents.css';

export function DdxPanel({ prefill }: { prefill?: string | undefined }) {
  const slot = useAgents((s) => s.ddx);
  const setInput = useAgents((s) => s.setDdxInput);
  const ask = useAgents((s) => s.askDdx);
  // A new view object each time the vet navigates here (Ctrl/Cmd+K included), even when
  // already here: each arrival puts the cursor back in the field.
  const view = useNav((s) => s.view);
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    if (prefill !== undefined) useAgents.getState().setDdxInput(prefill);
  }, [prefill]);
  useEffect(() => {
    field.current?.focus();
  }, [view]);

  return (
    <section className="agents-panel" aria-labelledby="ddx-title">
      <h1 id="ddx-title">Differential diagnosis</h1>
      <AgentForm
        label="Clinical history"
        hint="Species, signalment, presenting signs, history and findings: the more detail, the better the list."
        placeholder="e.g. Dog, 6 years, MN Labrador: vomiting and diarrhoea for 3 days after eating rubbish, lethargic."
        sendLabel="Get differentials"
        value={slot.input}
        onChange={setInput}
        onSend={() => void ask()}
        onRetry={() => void ask()}
        busy={slot.busy}
        problem={slot.problem}
        error={slot.error}
        fieldRef={field}
      />
      {slot.result && (
        <AgentAnswer
          result={slot.result}
          answered={slot.answered}
          items={slot.result.diagnoses}
          fields={DDX_FIELDS}
          listHeading="Possible diagnoses"
          fallbackTitle="Diagnosis"
          emptyMessage="The service accepted the history but listed no diagnoses. Add more detail and ask again."
          busy={slot.busy}
        />
      )}
    </section>
  );
}
