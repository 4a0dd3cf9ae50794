// The other pets of the visit (a litter's vaccinations, two cats with the same cough): added,
// named and removed before or during the recording, or just before Stop. While recording they
// go to main a moment after the typing stops (recording:pets), so a recording the app did not
// stop keeps them; Stop hands main the names as they are then (recording:stop) and clears them
// for the next visit. A pet removed before Stop sends nothing.
import { api } from '../../api.ts';
import { MAX_PETS } from '../../../../shared/limits.ts';
import { get, live, set } from './live-state.ts';

export { MAX_PETS };

const SEND_AFTER_MS = 600;
let timer: ReturnType<typeof setTimeout> | null = null;

/** One more pet, without a name yet; none past the limit. */
export function addPet(): void {
  const { pets } = get();
  if (pets.length < MAX_PETS) changed([...pets, '']);
}

export function setPetName(index: number, name: string): void {
  changed(get().pets.map((p, i) => (i === index ? name : p)));
}

export function removePet(index: number): void {
  changed(get().pets.filter((_, i) => i !== index));
}

/** The other pets all at once, as an appointment picked from the day's list names them; none past the limit. */
export function setPets(names: string[]): void {
  changed(names.slice(0, MAX_PETS));
}

function changed(pets: string[]): void {
  set({ pets });
  if (live.recording) schedulePets();
}

/** The pets as typed, to main a moment after the typing stops (at once with `now`). */
export function schedulePets({ now = false }: { now?: boolean } = {}): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => void sendPets(), now ? 0 : SEND_AFTER_MS);
}

/** Stop has the pets now: a send still waiting is dropped. */
export function cancelPetsSend(): void {
  if (timer) clearTimeout(timer);
  timer = null;
}

async function sendPets(): Promise<void> {
  timer = null;
  const current = live.recording;
  if (!current || current.ending) return;
  // Kept for safety only: a refusal changes nothing the vet sees, and Stop sends them again.
  await api.recording.pets({ id: current.id, pets: get().pets.map((name) => name.trim()) }).catch(() => undefined);
}
