// The patient's name, the visit's description and the template, as the vet types or picks them.
// Before a recording they only go into the store (the recording's start sends them); during one
// they go to main too: the details a moment after the typing stops, the template at once.
import { api } from '../../api.ts';
import { PATIENT_NAME_REQUIRED_MESSAGE } from '../../lib/patient-name.ts';
import { fail, get, live, set } from './live-state.ts';

const DETAILS_DEBOUNCE_MS = 600;

/** The details as the recording's start sent them to main (trimmed). */
export interface SentDetails {
  patientName: string;
  description: string;
  templateId: string | null;
}

export function setPatientName(patientName: string): void {
  set({ patientName, nameProblem: null });
  scheduleDetails();
}

export function setDescription(description: string): void {
  set({ description });
  scheduleDetails();
}

export function setTemplate(templateId: string | null): void {
  set({ templateId });
  const id = live.recording?.id;
  if (id) api.recording.update({ id, templateId }).catch((e: unknown) => fail(e, 'Could not change the template'));
}

function scheduleDetails(): void {
  if (!live.recording) return;
  if (live.detailsTimer) clearTimeout(live.detailsTimer);
  live.detailsTimer = setTimeout(() => void sendDetails(), DETAILS_DEBOUNCE_MS);
}

/**
 * The patient details as typed go to main while recording. A name emptied meanwhile is not
 * sent: main keeps the last one it had, and the field says so.
 */
async function sendDetails(): Promise<void> {
  live.detailsTimer = null;
  const id = live.recording?.id;
  if (!id) return;
  const name = get().patientName.trim();
  const description = get().description.trim();
  if (!name)
    set({ nameProblem: `${PATIENT_NAME_REQUIRED_MESSAGE} The name given before is kept until you type another.` });
  try {
    await api.recording.update({ id, ...(name ? { patientName: name } : {}), description: description || null });
    set({ detailsError: null });
  } catch (e) {
    set({ detailsError: `The patient details were not saved: ${(e as Error).message}` });
  }
}

/** Sends the details still waiting for the typing to stop, before the recording finishes. */
export async function flushDetails(): Promise<void> {
  if (!live.detailsTimer) return;
  clearTimeout(live.detailsTimer);
  await sendDetails();
}

/** Once the recording is under way: what the vet changed while it was being set up goes to main now. */
export function sendChangedSince(sent: SentDetails): void {
  if (get().patientName.trim() !== sent.patientName || get().description.trim() !== sent.description)
    void sendDetails();
  if (get().templateId !== sent.templateId) setTemplate(get().templateId);
}
