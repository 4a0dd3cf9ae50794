// The parts of a note's page that a note of this computer and one of the clinic's share: the
// action bar (Copy first and largest, Print, then what else the note offers, and one line that
// says how the last action went) and the note itself. A whole copy is said by the Copy button
// ("Copied ✓", in the width the button had, so nothing beside it moves) and read out by the
// status line, which then takes no room; what needs reading (a partial copy, an error, an
// export's file name) is shown on the line.
import type { ReactNode } from 'react';
import { NoteBody } from './note-body.tsx';
import type { NoteFeedback } from './use-note-actions.ts';

export function NoteActionBar({
  name,
  feedback,
  onCopy,
  onPrint,
  children,
}: {
  /** The note's name in the buttons' words: "note", "discharge instructions". */
  name: string;
  feedback: NoteFeedback;
  onCopy: () => void;
  onPrint: () => void;
  /** After Print: the figures to check, the More menu, or the exports as buttons. */
  children?: ReactNode;
}) {
  return (
    <div className="note-toolbar" role="group" aria-label={`Actions on the ${name}`}>
      <button
        type="button"
        className="primary big note-copy"
        onClick={(e) => {
          // The width it has now is kept while it says "Copied", which is shorter.
          e.currentTarget.style.minWidth = `${e.currentTarget.getBoundingClientRect().width}px`;
          onCopy();
        }}
      >
        {feedback?.copied ? 'Copied ✓' : `Copy ${name}`}
      </button>
      {/* The window's own print (Electron's too): the print stylesheet leaves the note alone on the page. */}
      <button type="button" onClick={onPrint}>
        Print
      </button>
      {children}
      <p
        className={`note-feedback ${feedback?.kind === 'error' ? 'field-error' : ''} ${feedback?.copied ? 'visually-hidden' : ''}`}
        role="status"
        aria-live="polite"
      >
        {feedback?.text}
      </p>
    </div>
  );
}

/** The note as the service wrote it (or as the vet edited it), its figures marked. */
export function NotePage({ text }: { text: string }) {
  return (
    <section className="panel note-page" aria-label="Note">
      {text.trim() === '' ? <p className="muted">The service sent an empty note.</p> : <NoteBody text={text} figures />}
    </section>
  );
}
