// A consult's trail: who recorded, sent, edited, copied, exported, printed or deleted it, or
// started a conversation about it, and when. Main writes it; the window reads it.
import { z } from 'zod';

export const TRAIL_ACTIONS = [
  'recorded',
  'sent',
  'edited',
  'copied',
  'exported',
  'printed',
  'deleted',
  'conversation',
] as const;
export type TrailAction = (typeof TRAIL_ACTIONS)[number];

/** The most entries a consult's trail keeps: its first (recorded) and the newest. */
export const MAX_TRAIL_ENTRIES = 200;

export const trailEntrySchema = z.object({
  action: z.enum(TRAIL_ACTIONS),
  /** ISO time of the action. */
  at: z.string().max(40),
  /** The user as the service gave it; '' when no one was signed in. */
  userId: z.string().max(200),
  name: z.string().max(200),
  /** For an action on one more document of the consult (its discharge instructions…): which. */
  documentId: z.string().max(40).optional(),
});
export type TrailEntry = z.infer<typeof trailEntrySchema>;

/** How the window says an action: "Edited", "Copied"… */
export const TRAIL_WORDS: Record<TrailAction, string> = {
  recorded: 'Recorded',
  sent: 'Sent',
  edited: 'Edited',
  copied: 'Copied',
  exported: 'Exported',
  printed: 'Printed',
  deleted: 'Deleted',
  conversation: 'Conversation started',
};
