// The day's appointment picked from the practice-management system (PIMS) list: it fills the
// patient's name with its first patient and the visit's other pets with the rest, as if the vet
// had typed them, and is linked to the consult once the recording has an id (pims:link), so the
// note can later be written into that appointment's record. Typing over a picked name keeps the
// link: the engine matches each pet to the appointment's patients by name when it sends, and
// says so when one does not match. There is no unlink: a linked appointment is changed by
// picking another one.
import { api } from '../../api.ts';
import { MAX_PATIENT_NAME } from '../../../../shared/limits.ts';
import type { PimsAppointmentView } from '../../../../shared/pims.ts';
import { isCapturing } from '../../stores/recorder.ts';
import { sendWaitingName, setPatientName } from './details-sync.ts';
import { fail, get, live, set } from './live-state.ts';
import { setPets } from './pets.ts';

/** The consult and appointment last linked, so a recording is linked once per appointment picked. */
let linked: { id: string; appointmentId: string } | null = null;

/**
 * Picks an appointment for the consult: before a recording, for the next one; during one, for
 * it (linked at once); after one that stopped without its name, for that consult, whose name is
 * then sent as Enter would.
 */
export async function pickAppointment(appointment: PimsAppointmentView): Promise<void> {
  const { status, result } = get();
  if (status === 'stopping') return;
  const names = appointment.patients.map((p) => p.name.trim().slice(0, MAX_PATIENT_NAME)).filter(Boolean);
  const [first = '', ...others] = names;
  set({ appointment: { id: appointment.id, start: appointment.start, patients: names } });
  if (first) setPatientName(first);
  const waiting = result?.needsName === true && !isCapturing(status) ? result.id : null;
  if (waiting) {
    // The visit's pets were made at Stop: only the waiting consult's own name is filled.
    await linkAppointment(waiting);
    await sendWaitingName();
    // Named, the consult is no longer the fields': they, and the appointment, are the next patient's.
    if (!get().result?.needsName) set({ appointment: null });
    return;
  }
  setPets(others);
  if (live.recording && !live.recording.ending) await linkAppointment(live.recording.id);
}

/** The picked appointment is no longer the next consult's; the names stay as they are. */
export function clearAppointment(): void {
  set({ appointment: null });
}

/**
 * Links the consult to the picked appointment, once: called when the recording has its id, and
 * at a pick while it runs. A refusal is said; the consult is recorded all the same, and a pick
 * tries again.
 */
export async function linkAppointment(id: string): Promise<void> {
  const picked = get().appointment;
  if (!picked || (linked?.id === id && linked.appointmentId === picked.id)) return;
  const tried = { id, appointmentId: picked.id };
  linked = tried;
  try {
    await api.pims.link(tried);
  } catch (e) {
    if (linked === tried) linked = null;
    fail(e, 'The consult was not linked to its appointment');
  }
}
