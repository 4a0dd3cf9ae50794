// The pets of one visit: a recording of several pets is one consult per pet, each with its own
// note, edit, copy, export and "Another document…". Above the note, one tab per pet opens that
// pet's consult; in the Consults list each pet's row says who else was seen ("Bella · with
// Mango"). Two pets with one name are told apart by a number ("Bella (2)").
import { useMemo } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { consultStatus } from '../../lib/consult-status.ts';
import { useConsults } from '../../stores/consults.ts';
import { useNav } from '../../stores/nav.ts';
import './pet-tabs.css';

export interface VisitPet {
  consult: ConsultInfo;
  /** The pet's name, numbered when another pet of the visit has the same one. */
  label: string;
  /** Its number among the visit's pets of the same name, from the second on; else null. */
  number: number | null;
}

/**
 * The consults of `consult`'s visit this window has, labelled: the first pet (the recording
 * itself) first, then the others by name. Empty for a consult of one pet.
 */
export function visitPets(byId: Record<string, ConsultInfo>, consult: ConsultInfo): VisitPet[] {
  const visitId = consult.recording.visitId;
  if (!visitId) return [];
  const name = (c: ConsultInfo) => c.recording.patientName?.trim() ?? '';
  const pets = Object.values(byId)
    .filter((c) => c.recording.visitId === visitId)
    .sort(
      (a, b) =>
        Number(b.recording.id === visitId) - Number(a.recording.id === visitId) ||
        name(a).localeCompare(name(b)) ||
        a.recording.id.localeCompare(b.recording.id),
    );
  const seen = new Map<string, number>();
  return pets.map((c, i) => {
    const own = name(c);
    const key = own.toLowerCase();
    const count = (seen.get(key) ?? 0) + 1;
    seen.set(key, count);
    const number = own && count > 1 ? count : null;
    const label = own ? (number ? `${own} (${number})` : own) : `Patient ${i + 1} (no name yet)`;
    return { consult: c, label, number };
  });
}

function useVisitPets(consult: ConsultInfo): VisitPet[] {
  const byId = useConsults((s) => s.byId);
  return useMemo(() => visitPets(byId, consult), [byId, consult]);
}

/** "· with Mango" (and this pet's number when its name is another pet's too), for a row's title. */
export function VisitCompanions({ consult }: { consult: ConsultInfo }) {
  const pets = useVisitPets(consult);
  if (pets.length < 2) return null;
  const me = pets.find((p) => p.consult.recording.id === consult.recording.id);
  const others = pets.filter((p) => p !== me).map((p) => p.label);
  return (
    <span className="visit-with">
      {me?.number ? ` (${me.number})` : ''} · with {others.join(', ')}
    </span>
  );
}

/** One tab per pet of the visit, above the note; none for a consult of one pet. */
export function PetTabs({ consult }: { consult: ConsultInfo }) {
  const pets = useVisitPets(consult);
  const go = useNav((s) => s.go);
  if (pets.length < 2) return null;
  return (
    <nav className="pet-tabs" aria-label="Pets seen in this visit">
      <ul>
        {pets.map(({ consult: pet, label }) => {
          const current = pet.recording.id === consult.recording.id;
          return (
            <li key={pet.recording.id}>
              <button
                type="button"
                className={current ? 'pet-tab current' : 'pet-tab'}
                aria-current={current ? 'page' : undefined}
                onClick={() => go({ name: 'note', id: pet.recording.id })}
              >
                <span className="pet-tab-name">{label}</span>
                <span className="pet-tab-status">{consultStatus(pet).badge}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
