// Retention: the audio of a consult whose note has come is deleted once it is past the days its
// organization keeps audio. The note and the job stay; the job notes when its audio went.
import { rm } from 'node:fs/promises';

import type { JobsContext } from './context.ts';
import type { Live } from './live.ts';

/** A consult's retention: days its audio is kept after the note (null = for ever), and from when they count. Null: the consult is none of this rule's. */
export type RetentionPolicy = (recordingId: string) => { keepDays: number | null; countFrom: number | null } | null;

/**
 * The finished consults whose audio is past their retention: `policy` gives each consult's
 * (its own organization's: one organization's choice never reaches another's audio), counted from the note,
 * or from `countFrom` for a note that came before it (a shorter retention chosen "from today").
 */
function retentionDue(context: JobsContext, policy: RetentionPolicy): Live[] {
  const now = context.options.now();
  return [...context.store.jobs.values()].filter(({ record: r }) => {
    if (r.state !== 'completed' || r.audioDeletedAt !== null || r.completedAt === null) return false;
    const rule = policy(r.recordingId);
    if (rule === null || rule.keepDays === null) return false;
    return Math.max(Date.parse(r.completedAt), rule.countFrom ?? 0) + rule.keepDays * 24 * 3600 * 1000 <= now;
  });
}

/** How many recordings' audio a policy would delete now, counted from each note. */
export function retentionPreview(context: JobsContext, policy: RetentionPolicy): number {
  return retentionDue(context, policy).length;
}

/** Deletes the audio past each consult's retention, each in its consult's turn. */
export async function applyRetention(context: JobsContext, policy: RetentionPolicy): Promise<string[]> {
  const { store, options } = context;
  const deleted: string[] = [];
  for (const due of retentionDue(context, policy)) {
    const id = due.record.recordingId;
    const done = await context.turns.run(id, async () => {
      // Looked at again in the turn: the consult may have gone, or its owner changed, meanwhile.
      const live = store.jobs.get(id);
      if (live !== due || !retentionDue(context, policy).includes(live)) return false;
      await rm(options.recordings.audioPath(id), { force: true });
      await store.save(live, { audioDeletedAt: new Date(options.now()).toISOString() });
      return true;
    });
    if (done) deleted.push(id);
  }
  return deleted;
}
