// An edit of a note announced through the clinic relay: the PC where a note was edited says so
// (which note, on which computer, by whom, when) and the relay passes it to every PC of the same
// organization. The service's API cannot change a note, so the other PCs show its original; with
// this they can say where the edited one is. Never the note's text: the schema takes no other
// field, and the relay and the PCs refuse one that comes with more. Read by the relay and by the
// engine; the window sees only the plain `EditedElsewhere` of src/shared/clinic.ts.
import { z } from 'zod';

/** Words shown to a vet: one line, no control characters. */
const shownText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(
      (v) => [...v].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f),
      'must be one line of text, without control characters',
    );

export const MAX_ROOM = 80;
export const MAX_EDITOR = 120;

export const relayEditSchema = z.strictObject({
  /** The note (the service's scribe) that was edited. */
  public_id: z.string().min(1).max(200),
  /** The computer it was edited on, as its vets call it ("Exam room 1"). */
  room: shownText(MAX_ROOM),
  /** The vet who made the edit, as the service names them. */
  editor: shownText(MAX_EDITOR),
  /** When the edit was saved (ISO 8601). */
  edited_at: z.iso.datetime({ offset: true }),
});
export type RelayEdit = z.infer<typeof relayEditSchema>;

/** What is wrong with an announcement, in one sentence naming each field. */
export function relayEditProblem(error: z.ZodError): string {
  return error.issues
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')}: not part of an edit (only public_id, room, editor and edited_at are)`
        : `${issue.path.join('.') || 'the body'}: ${issue.message}`,
    )
    .join('; ');
}
