// The window's calls and events about the practice-management system (`pims:*`): main's side is
// src/main/core/pims/calls.ts.
import { z } from 'zod';
import type { PimsDay, PimsNoteState, PimsStatus } from '../pims.ts';
import { MAX_URL } from '../limits.ts';
import { answer, id, none, payload } from './fields.ts';

/** An id the practice-management system gave (an appointment's, a patient's). */
const pimsId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'is not an id the practice-management system gives');

export const pimsInvokes = {
  /** The practice-management system for the vet in front: this computer's setup and their sign-in. */
  'pims:status': { input: none, output: answer<PimsStatus>() },
  /**
   * Sets this computer's PIMS up (when `address` and `clientId` are new) and signs the vet in to it
   * through its own page in the system browser; resolves once they did, or with why not. The
   * setup is kept only once a sign-in succeeded.
   */
  'pims:signIn': {
    input: z.object({
      address: z.string().trim().min(1, 'is required').max(MAX_URL, 'is too long'),
      clientId: z.string().trim().min(1, 'is required').max(255, 'is too long'),
    }),
    output: answer<PimsStatus>(),
  },
  /** The vet gave up the sign-in in the browser. */
  'pims:cancelSignIn': { input: none, output: answer<PimsStatus>() },
  'pims:signOut': { input: none, output: answer<PimsStatus>() },
  /** The day's appointments: the copy kept here at once, refreshed in the background (the `pims:day` event follows). */
  'pims:today': { input: none, output: answer<PimsDay>() },
  /** The day's appointments read from the PIMS now. */
  'pims:refreshToday': { input: none, output: answer<PimsDay>() },
  /**
   * Links a consult (each pet of its visit) to a day's appointment: each pet is matched to the
   * appointment's patient of its name.
   */
  'pims:link': { input: z.object({ id, appointmentId: pimsId }), output: answer<PimsNoteState>() },
  'pims:noteState': { input: z.object({ id }), output: answer<PimsNoteState>() },
  /** "Send to …" / "Update in …": the note as the vet last saved it, into the patient's record. */
  'pims:send': { input: z.object({ id }), output: answer<PimsNoteState>() },
} as const;

export const pimsEvents = {
  /** The day's appointments of the vet in front were read again (or could not be). */
  'pims:day': payload<PimsDay>(),
  /** Where a consult's note stands in the PIMS changed (sent, waiting, failed). */
  'pims:note': payload<{ id: string; state: PimsNoteState }>(),
} as const;
