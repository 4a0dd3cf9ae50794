// The window's calls and event about the clinic's consults from the service, recorded on any
// computer (`clinic:*`): main's side is src/main/core/clinic/calls.ts.
import { z } from 'zod';
import type { ClinicNote, ClinicView } from '../clinic.ts';
import type { ChatTurn, NoteExport, NoteFormats } from './consults.ts';
import { answer, chatMessage, none, payload } from './fields.ts';

/** A consult of the clinic's list: `scribe:<id>` or `recording-session:<id>`, the service's id. */
const clinicKey = z
  .string()
  .max(120, 'is too long')
  .regex(/^(scribe|recording-session):[A-Za-z0-9._:-]{1,100}$/, 'is not a consult of the clinic’s list');

export const clinicInvokes = {
  /** The clinic's consults from the service (recorded elsewhere), as last read; empty when signed out. */
  'clinic:list': { input: none, output: answer<ClinicView>() },
  /** Reads the clinic's lists from the service again; a failure leaves the last copy and says why in `error`. */
  'clinic:refresh': { input: none, output: answer<ClinicView>() },
  /** A note from the service, read once and then kept on this computer. */
  'clinic:note': { input: z.object({ key: clinicKey }), output: answer<ClinicNote>() },
  'clinic:noteFormats': { input: z.object({ key: clinicKey }), output: answer<NoteFormats>() },
  'clinic:export': {
    input: z.object({ key: clinicKey, format: z.enum(['txt', 'rtf', 'pdf']) }),
    output: answer<NoteExport>(),
  },
  /**
   * One message to the clinical assistant about a note of the clinic's from elsewhere: the first
   * sends the note as kept on this computer. The turn is kept with the account's copy.
   */
  'clinic:chat': { input: z.object({ key: clinicKey, message: chatMessage }), output: answer<ChatTurn>() },
  /** The signed-in account's conversation about that note, oldest turn first. */
  'clinic:chatTurns': { input: z.object({ key: clinicKey }), output: answer<ChatTurn[]>() },
} as const;

export const clinicEvents = {
  /** The signed-in account's clinic consults changed (a refresh ended, a note was kept). */
  'clinic:changed': payload<ClinicView>(),
} as const;
