// The treatment-plan agent (SPEC row 11). Its input must name the species; main checks first
// and answers `needs_species` instead of sending, and the vet chooses to add it or send anyway.
import { useEffect, useRef } from 'react';
import { TREATMENT_FIELDS } from '../../../../shared/service/fields.ts';
import { AgentAnswer } from './agent-answer.tsx';
import { AgentForm } from './agent-form.tsx';
import { useAgents } from './agents-store.ts';
import './agents.css';

export function TreatmentPanel() {
  const slot = useAgents((s) => s.treatment);
  const setInput = useAgents((s) => s.setTreatmentInput);
  const ask = useAgents((s) => s.askTreatment);
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    field.current?.focus();
  }, []);

  return (
    <section className="agents-panel" aria-labelledby="treatment-title">
      <h1 id="treatment-title">Treatment plan</h1>
      <AgentForm
        label="Case details"
        hint="Name the species (dog, cat…), and if you can the breed, age, sex, the disease of interest and history."
        placeholder="e.g. Dog, 6 years, FN Cocker Spaniel: itchy ears and head shaking, otitis externa."
        sendLabel="Get treatment plan"
        value={slot.input}
        onChange={setInput}
        onSend={() => void ask()}
        onRetry={() => void ask({ withoutSpecies: slot.withoutSpecies })}
        busy={slot.busy}
        problem={slot.problem}
        error={slot.error}
        fieldRef={field}
      >
        {slot.needsSpecies && (
          <div className="notice notice-warning agent-species" role="alert">
            <p>{slot.needsSpecies}</p>
            <div className="row">
              <button type="button" onClick={() => field.current?.focus()}>
                Edit case details
              </button>
              <button type="button" onClick={() => void ask({ withoutSpecies: true })} disabled={slot.busy}>
                Send anyway
              </button>
            </div>
          </div>
        )}
      </AgentForm>
      {slot.result && (
        <AgentAnswer
          result={slot.result}
          answered={slot.answered}
          items={slot.result.plans}
          fields={TREATMENT_FIELDS}
          listHeading="Treatment plans"
          fallbackTitle="Plan"
          emptyMessage="The service accepted the case but gave no plan. Name the disease of interest and ask again."
          busy={slot.busy}
        />
      )}
    </section>
  );
}
