// The medication agent (`POST /medication_agent_v2`, docs/service.md): a drug and a species in, the
// plain-English lines first, then one card per drug with its dosing by species set apart. Built
// like the other two panels: the field has the cursor on arrival, Ctrl/Cmd+Enter sends.
import { useEffect, useRef } from 'react';
import { MEDICATION_FIELDS } from '../../../../shared/service/fields.ts';
import { useNav } from '../../stores/nav.ts';
import { AgentAnswer } from './agent-answer.tsx';
import { AgentForm } from './agent-form.tsx';
import { useAgents } from './agents-store.ts';
import type { CardField } from './result-cards.tsx';
import './agents.css';

type MedicationKey = (typeof MEDICATION_FIELDS)[number]['key'];

const FIRST_WIRE = 'drug_name_and_classification';
const DOSING_WIRE = 'dosing_by_species';

/** The drug's name first, its dosing by species next and set apart, then the rest in order. */
export const MEDICATION_CARD_FIELDS: readonly CardField<MedicationKey>[] = [...MEDICATION_FIELDS]
  .sort((a, b) => rank(a.wire) - rank(b.wire))
  .map((f) => ({ key: f.key, heading: f.heading, ...(f.wire === DOSING_WIRE ? { prominent: true } : {}) }));

function rank(wire: string): number {
  if (wire === FIRST_WIRE) return 0;
  return wire === DOSING_WIRE ? 1 : 2;
}

export function MedicationPanel() {
  const slot = useAgents((s) => s.medication);
  const setInput = useAgents((s) => s.setMedicationInput);
  const ask = useAgents((s) => s.askMedication);
  const view = useNav((s) => s.view);
  const field = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    field.current?.focus();
  }, [view]);

  return (
    <section className="agents-panel" aria-labelledby="medication-title">
      <h1 id="medication-title">Medications</h1>
      <AgentForm
        label="Drug and species"
        hint="Name the drug and the species (dog, cat…); the weight or the condition helps."
        placeholder="e.g. Meloxicam, dog, 20 kg, osteoarthritis"
        sendLabel="Look up medication"
        rows={3}
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
          items={slot.result.medications}
          fields={MEDICATION_CARD_FIELDS}
          listHeading="Drugs"
          fallbackTitle="Drug"
          emptyMessage="The service accepted the question but described no drug. Check the drug's name and ask again."
          busy={slot.busy}
        />
      )}
    </section>
  );
}
