// The other pets of the visit (a litter's vaccinations, two cats with the same cough): added,
// named and removed before or during the recording, or just before Stop. They stay in the window
// until Stop, which hands their names to main (recording:stop) and clears them for the next
// visit; a pet removed before then sends nothing.
import { MAX_PETS } from '../../../../shared/limits.ts';
import { get, set } from './live-state.ts';

export { MAX_PETS };

/** One more pet, without a name yet; none past the limit. */
export function addPet(): void {
  const { pets } = get();
  if (pets.length < MAX_PETS) set({ pets: [...pets, ''] });
}

export function setPetName(index: number, name: string): void {
  set({ pets: get().pets.map((p, i) => (i === index ? name : p)) });
}

export function removePet(index: number): void {
  set({ pets: get().pets.filter((_, i) => i !== index) });
}
