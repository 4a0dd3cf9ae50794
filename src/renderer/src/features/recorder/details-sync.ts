// The patient's name, the visit's description and the template, as the vet types or picks them.
// Before a recording they only go into the store (the recording's start sends them); during one
// they go to main too: the details a moment after the typing stops, the template at once. After
// a recording that stopped without the name, the fields are that consult's until the name is
// sent: Enter or leaving the name field sends it, never a pause in the typing, which would send
// half a name that can no longer be changed once the consult is sent.
import { api } from '../../api.ts';
import { consultTitle } from '../../lib/consult-status.ts';
import { PATIENT_NAME_ASK_MESSAGE } from '../../lib/patient-name.ts';
import { useConsults } from '../../stores/consults.ts';
import { fail, get, live, set } from './live-state.ts';

const DETAILS_DEBOUNCE_MS = 600;

/** Said under an emptied name during a recording whose consult has one already. */
export const NAME_KEPT_MESSAGE = 'The name given before is kept until you type another.';

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
  if (id) api.consults.update({ id, templateId }).catch((e: unknown) => fail(e, 'Could not change the template'));
}

function scheduleDetails(): void {
  if (!live.recording) return;
  if (live.detailsTimer) clearTimeout(live.detailsTimer);
  live.detailsTimer = setTimeout(() => void sendDetails(), DETAILS_DEBOUNCE_MS);
}

/**
 * The patient details as typed go to main while recording. An empty name is not sent: a
 * consult that had one keeps it (and the field says so); one that had none waits for it.
 */
async function sendDetails(): Promise<void> {
  live.detailsTimer = null;
  const id = live.recording?.id;
  if (!id) return;
  const name = get().patientName.trim();
  const description = get().description.trim();
  if (!name && live.namedInMain) set({ nameProblem: NAME_KEPT_MESSAGE });
  try {
    await api.consults.update({ id, ...(name ? { patientName: name } : {}), description: description || null });
    if (name) live.namedInMain = true;
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
  live.namedInMain = sent.patientName !== '';
  if (get().patientName.trim() !== sent.patientName || get().description.trim() !== sent.description)
    void sendDetails();
  if (get().templateId !== sent.templateId) setTemplate(get().templateId);
}

let naming: Promise<void> | null = null;

/**
 * The name typed for a consult that stopped without one: main keeps it, and sends the consult
 * at once when it has its template. The fields are then the next patient's. Joined, not
 * repeated, when Enter and leaving the field come together.
 */
export function sendWaitingName(): Promise<void> {
  naming ??= nameWaitingConsult().finally(() => {
    naming = null;
  });
  return naming;
}

async function nameWaitingConsult(): Promise<void> {
  const { result, patientName, description, templateId } = get();
  if (!result?.needsName || live.recording) return;
  if (useConsults.getState().byId[result.id]?.recording.patientName?.trim()) {
    // Named meanwhile in Consults: what is typed here is the next patient's.
    set({ nameProblem: null, result: { ...result, needsName: false } });
    return;
  }
  const name = patientName.trim();
  if (!name) {
    set({ nameProblem: PATIENT_NAME_ASK_MESSAGE });
    return;
  }
  try {
    const consult = await api.consults.update({
      id: result.id,
      patientName: name,
      description: description.trim() || null,
      ...(templateId && !result.sent ? { templateId } : {}),
    });
    const now = get();
    if (now.result?.id !== result.id) return;
    set({
      // Typing that went on meanwhile is the vet's: it stays.
      ...(now.patientName.trim() === name ? { patientName: '', description: '' } : {}),
      nameProblem: null,
      detailsError: null,
      result: {
        ...result,
        title: consultTitle(consult.recording),
        sent: consult.job !== null,
        needsName: !consult.recording.patientName?.trim(),
      },
    });
  } catch (e) {
    set({ detailsError: `The patient's name was not saved: ${(e as Error).message}` });
  }
}
