// The visit's other pets, under the first patient's name: "Add a patient" before or while
// recording, each with its own name field and a Remove button. At Stop each pet gets a note of
// its own from the same recording; one not named by then waits for its name in Consults.
import { useEffect, useId, useRef } from 'react';
import { MAX_PATIENT_NAME } from '../../../../shared/limits.ts';
import { useRecorder } from '../../stores/recorder.ts';
import { addPet, MAX_PETS, removePet, setPetName } from './recorder-controller.ts';

export function PetFields() {
  const pets = useRecorder((s) => s.pets);
  const stopping = useRecorder((s) => s.status === 'stopping');
  const ids = useId();
  const box = useRef<HTMLDivElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const count = useRef(pets.length);
  // Pets filled in from an appointment picked in the day's list leave the keyboard on that list.
  const adding = useRef(false);
  // The keyboard follows: into the name of a patient just added, back to Add after a Remove.
  useEffect(() => {
    if (pets.length > count.current && adding.current)
      box.current?.querySelector<HTMLInputElement>('.recorder-pet:last-of-type input')?.focus();
    else if (pets.length < count.current && document.activeElement === document.body) addRef.current?.focus();
    adding.current = false;
    count.current = pets.length;
  }, [pets.length]);
  return (
    <div className="recorder-pets" ref={box}>
      {pets.map((name, i) => (
        <div className="recorder-pet" key={i}>
          <label htmlFor={`${ids}-${i}`}>Patient {i + 2}&apos;s name</label>
          <div className="row">
            <input
              id={`${ids}-${i}`}
              type="text"
              value={name}
              maxLength={MAX_PATIENT_NAME}
              onChange={(e) => setPetName(i, e.target.value)}
              placeholder="e.g. Mango"
              autoComplete="off"
              disabled={stopping}
            />
            <button
              type="button"
              onClick={() => removePet(i)}
              aria-label={`Remove patient ${i + 2}${name.trim() ? ` (${name.trim()})` : ''}`}
              disabled={stopping}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      {pets.length < MAX_PETS && (
        <button
          ref={addRef}
          type="button"
          onClick={() => {
            adding.current = true;
            addPet();
          }}
          disabled={stopping}
        >
          Add a patient
        </button>
      )}
      {pets.length > 0 && <p className="field-hint">Each patient gets its own note from this recording.</p>}
    </div>
  );
}
