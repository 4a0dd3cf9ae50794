// A consult's trail: who recorded, sent, edited, copied, exported, printed or deleted it,
// started a conversation about it, or filed its note in the practice-management system, and
// when. Main writes it; the window reads it. No schema here: the window imports this file.
export const TRAIL_ACTIONS = [
  'recorded',
  'sent',
  'edited',
  'copied',
  'exported',
  'printed',
  'deleted',
  'conversation',
  'filed',
] as const;
export type TrailAction = (typeof TRAIL_ACTIONS)[number];

/** The most entries a consult's trail keeps: its first (recorded) and the newest. */
export const MAX_TRAIL_ENTRIES = 200;

/** One entry; main reads each line of a trail through its schema (core/consults/trail.ts). */
export interface TrailEntry {
  action: TrailAction;
  /** ISO time of the action. */
  at: string;
  /** The user as the service gave it; '' when no one was signed in. */
  userId: string;
  name: string;
  /** For an action on one more document of the consult (its discharge instructions…): which. */
  documentId?: string;
}

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
  filed: 'Sent to the practice system',
};
