// The treatment plan's doses per kilogram, each followed by its total for the weight the case
// details state: the app's own arithmetic, so it is set apart and said so above the plans.
import type { ReactNode } from 'react';
import { perKgTotals, statedWeightKg } from '../../../../shared/note/figures.ts';
import type { AnswerExtras } from './agent-config.ts';

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

/** No weight in the case details: the doses stand as the service wrote them. */
export function doseTotals(answered: string): AnswerExtras | null {
  const kg = statedWeightKg(answered);
  if (kg === null) return null;
  return {
    renderValue: (_key, value) => withTotals(value, kg),
    beforeCards: (
      <p className="notice notice-warning dose-note" role="note">
        Totals for {kg} kg are worked out by this app from the doses per kg, not by the service: check each against the
        formulary before use.
      </p>
    ),
  };
}
