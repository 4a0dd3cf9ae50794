// The doses per kilogram of an answer, each followed by its total for the weight the question
// states: the app's own arithmetic, so it is set apart and said so above the cards. A drug's
// dosing by species puts the species asked about first, and only its doses get totals: a cat's
// weight says nothing about a dog's dose.
import type { ReactNode } from 'react';
import { perKgTotals, statedWeightKg } from '../../../../shared/note/figures.ts';
import { detectSpecies, type Species } from '../../../../shared/species.ts';
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

/** The same as text: "0.1 mg/kg (= 0.42 mg for 4.2 kg)". */
function withTotalsText(value: string, kg: number): string {
  let text = '';
  let at = 0;
  for (const t of perKgTotals(value, kg)) {
    text += `${value.slice(at, t.end)} (= ${t.total} for ${kg} kg)`;
    at = t.end;
  }
  return text + value.slice(at);
}

function totalsNote(kg: number, what: string): ReactNode {
  return (
    <p className="notice notice-warning dose-note" role="note">
      Totals for {kg} kg are worked out by this app from the doses per kg{what}, not by the service: check each against
      the formulary before use.
    </p>
  );
}

/** No weight in the case details: the doses stand as the service wrote them. */
export function doseTotals(answered: string): AnswerExtras | null {
  const kg = statedWeightKg(answered);
  if (kg === null) return null;
  return {
    renderValue: (_key, value) => withTotals(value, kg),
    beforeCards: totalsNote(kg, ''),
  };
}

export interface SpeciesPart {
  /** The species the part is for, when its label names one ("Dog:", "Cats:"). */
  species: Species | null;
  text: string;
}

// A part starts at the text's start or after a sentence's end, with a short label and a colon:
// "Dog: 0.2 mg/kg … Cat: 0.3 mg/kg …".
const PART_START = /(?:^|(?<=[.;]\s+))(?=[A-Z][A-Za-z -]{1,30}:\s)/g;

/** A dosing text cut into its parts by species, in the service's order. */
export function speciesParts(text: string): SpeciesPart[] {
  return text
    .split(PART_START)
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((t) => ({ species: detectSpecies(t.slice(0, t.indexOf(':') + 1))[0] ?? null, text: t }));
}

/** The parts of a dosing text with those for `species` first, the others after in their order. */
export function speciesFirst(text: string, species: Species): SpeciesPart[] {
  const parts = speciesParts(text);
  return [...parts.filter((p) => p.species === species), ...parts.filter((p) => p.species !== species)];
}

/**
 * The medication card's dosing by species, for the species and weight asked about: that
 * species' doses first, each with its total when a weight is given. Null when the question
 * names neither.
 */
export function medicationDoses(dosingKey: string) {
  return (answered: string): AnswerExtras | null => {
    const species = detectSpecies(answered)[0] ?? null;
    const kg = statedWeightKg(answered);
    if (species === null && kg === null) return null;
    const render = (value: string): ReactNode => {
      if (species === null) return kg === null ? value : withTotals(value, kg);
      const parts = speciesFirst(value, species);
      return parts.map((p, i) => (
        <span key={i} className={p.species === species ? 'dose-asked' : undefined}>
          {i > 0 && ' '}
          {kg !== null && p.species === species ? withTotals(p.text, kg) : p.text}
        </span>
      ));
    };
    const text = (value: string): string => {
      if (species === null) return kg === null ? value : withTotalsText(value, kg);
      return speciesFirst(value, species)
        .map((p) => (kg !== null && p.species === species ? withTotalsText(p.text, kg) : p.text))
        .join(' ');
    };
    return {
      renderValue: (key, value) => (key === dosingKey ? render(value) : value),
      textValue: (key, value) => (key === dosingKey ? text(value) : value),
      beforeCards: kg === null ? null : totalsNote(kg, species === null ? '' : ` for the ${species}`),
    };
  };
}
