// The search of the consults list: every word of the query in a consult's texts, case and
// accents aside, over the consults the account signed in may see.
import type { RecordingMeta } from '../recordings/index.ts';
import type { ConsultGate } from './gate.ts';
import type { Pipeline } from '../jobs/index.ts';

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

export class ConsultSearch {
  /** Every recording newest first (`ConsultCache.newestFirst`): the search reads the metas, not the window's answers. */
  private readonly newestFirst: () => readonly RecordingMeta[];
  private readonly gate: ConsultGate;
  private readonly pipeline: Pipeline;
  /** Each consult's folded text, with the texts it was made of. */
  private texts = new Map<string, { parts: readonly (string | null)[]; folded: string }>();

  constructor(newestFirst: () => readonly RecordingMeta[], gate: ConsultGate, pipeline: Pipeline) {
    this.newestFirst = newestFirst;
    this.gate = gate;
    this.pipeline = pipeline;
  }

  /** The consults the account signed in may see or claim, newest first, each with what it may read of it. */
  private visible(): { meta: RecordingMeta; whole: boolean }[] {
    const shown: { meta: RecordingMeta; whole: boolean }[] = [];
    for (const meta of this.newestFirst()) {
      const access = this.gate.access(meta.id);
      if (access !== 'none') shown.push({ meta, whole: access === 'full' && this.pipeline.hasJob(meta.id) });
    }
    return shown;
  }

  /**
   * The visible consults whose list name, patient, visit, label, note or further documents hold every word of the query
   * (case and accents aside), newest first. Plain text: a query with pattern characters finds
   * them as written.
   */
  search(query: string): string[] {
    const words = fold(query).split(/\s+/).filter(Boolean);
    if (words.length === 0) return this.visible().map(({ meta }) => meta.id);
    const kept: typeof this.texts = new Map();
    // A consult offered to claim is found by its patient and visit only: its notes are not yet this vet's.
    const found = this.visible().filter(({ meta: recording, whole }) => {
      const { note, editedNote } = whole ? this.pipeline.note(recording.id) : { note: null, editedNote: null };
      const parts = [
        recording.listName,
        recording.patientName,
        recording.description,
        recording.label,
        editedNote ?? note,
        ...(whole ? this.pipeline.documentTexts(recording.id) : []),
      ];
      // Folding every note again took most of a search's time with thousands of consults: a
      // consult's folded text is reused while it is made of the same texts (mostly the very
      // same strings the pipeline holds, so comparing them costs next to nothing).
      let text = this.texts.get(recording.id);
      if (!text || text.parts.length !== parts.length || text.parts.some((p, i) => p !== parts[i])) {
        text = { parts, folded: fold(parts.filter(Boolean).join('\n')) };
      }
      kept.set(recording.id, text);
      const { folded } = text;
      return words.every((w) => folded.includes(w));
    });
    // Consults deleted, or no longer this account's to see, are dropped with the next search.
    this.texts = kept;
    return found.map(({ meta }) => meta.id);
  }
}
