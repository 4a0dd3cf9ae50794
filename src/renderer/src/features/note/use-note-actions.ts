// What the vet does with a note in hand, the same for a note of this computer and one of the
// clinic's: copy it (text, HTML and RTF at once), print it, export it as a file. Each says how it
// went in one line beside the buttons; a success goes after a few seconds. A whole copy says so
// on the Copy button itself (`copied`), so the bar does not move for the most common action.
import { useEffect, useState } from 'react';
import { COPY_WORDS, type CopyOutcome } from '../../lib/copy-note.ts';
import { downloadBytes } from '../../lib/download.ts';

export const NOTE_EXPORTS = [
  { format: 'txt', label: 'Export .txt' },
  { format: 'rtf', label: 'Export .rtf' },
  { format: 'pdf', label: 'Export .pdf' },
] as const;

export type ExportFormat = (typeof NOTE_EXPORTS)[number]['format'];

export type NoteFeedback = { kind: 'ok' | 'error'; text: string; copied?: true } | null;

const SHOWN_FOR_MS = 4000;

export interface NoteActionCalls {
  copy(): Promise<CopyOutcome>;
  /** Says that the note is printed, before it is; a refusal means nothing is printed. */
  printing?(): Promise<unknown>;
  exportAs(format: ExportFormat): Promise<{ data: Uint8Array | string; fileName: string; mimeType: string }>;
}

export function useNoteActions(calls: NoteActionCalls) {
  const [feedback, setFeedback] = useState<NoteFeedback>(null);
  useEffect(() => {
    if (feedback?.kind !== 'ok') return;
    const timer = setTimeout(() => setFeedback(null), SHOWN_FOR_MS);
    return () => clearTimeout(timer);
  }, [feedback]);
  return {
    feedback,
    async copy() {
      setFeedback(null);
      try {
        const outcome = await calls.copy();
        setFeedback({ kind: 'ok', text: COPY_WORDS[outcome], ...(outcome === 'all' ? { copied: true as const } : {}) });
      } catch (e) {
        setFeedback({
          kind: 'error',
          text: `The note could not be copied (${(e as Error).message}). Select the text and press Ctrl+C instead.`,
        });
      }
    },
    async print() {
      try {
        await calls.printing?.();
        window.print();
      } catch (e) {
        setFeedback({ kind: 'error', text: (e as Error).message });
      }
    },
    async exportAs(format: ExportFormat) {
      try {
        const file = await calls.exportAs(format);
        downloadBytes(file.data, file.fileName, file.mimeType);
        setFeedback({ kind: 'ok', text: `Exported: ${file.fileName}` });
      } catch (e) {
        setFeedback({ kind: 'error', text: `The .${format} file could not be made: ${(e as Error).message}` });
      }
    },
  };
}
