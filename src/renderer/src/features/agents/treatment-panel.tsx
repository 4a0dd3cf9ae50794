// The treatment-plan agent (`POST /treatment_plan_agent_v2`). Its input must name the species; main
// checks first and answers `needs_species` instead of sending, and the vet chooses to add it or
// send anyway.
import { useEffect, useRef, type ReactNode } from 'react';
import { perKgTotals, statedWeightKg } from '../../../../shared/note/figures.ts';
import { TREATMENT_FIELDS } from '../../../../shared/service/fields.ts';
import { AgentAnswer } from './agent-answer.tsx';
import { AgentForm } from './agent-form.tsx';
import { useAgents } from './agents-store.ts';
import './agents.css';

/** A value with each per-kilogram dose followed by its total for the patient's weight. */
function withTotals(value: string, kg: number): ReactNode {
  const totals = perKgTotals(value, kg);
  if (totals.length === 0) return value;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const t of totals) {
    parts.push(value.slice(at, t.end));
    parts.push(
      <span key={t.start} className="dose-total">
        {' '}
        (= {t.total} for {kg} kg)
      </span>,
    );
    at = t.end;
  }
  parts.push(value.slice(at));
  return parts;
}

export function TreatmentPanel() {
  const slot = useAgents((s) => s.treatment);
  const setInput = useAgents((s) => s.setTreatmentInput);
  const ask = useAgents((s) => s.askTreatment);
  const field = useRef<HTMLTextAreaElement>(null);
  const kg = slot.result ? statedWeightKg(slot.answered) : null;

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
          // A weight in the case details: each dose per kilogram gets its total beside it, the
          // app's own arithmetic, said so above the plans.
          {...(kg !== null && {
            renderValue: (_key: string, value: string) => withTotals(value, kg),
            beforeCards: (
              <p className="notice notice-warning dose-note" role="note">
                Totals for {kg} kg are worked out by this app from the doses per kg, not by the service: check each
                against the formulary before use.
              </p>
            ),
          })}
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
