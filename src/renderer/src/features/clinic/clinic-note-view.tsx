// A note from the service, recorded elsewhere: read once from the service and then kept on this
// computer, so it opens offline. Read, copied (text, HTML and RTF), printed and exported as a
// note of this computer is; it is not edited here. Under it, the same conversation about the
// consult as under a note of this computer.
import { useEffect, useState } from 'react';
import type { ClinicNote } from '../../../../shared/clinic.ts';
import { api } from '../../api.ts';
import { COPY_WORDS, writeFlavours, type CopyOutcome } from '../../lib/copy-note.ts';
import { useNav } from '../../stores/nav.ts';
import { useSession } from '../../stores/session.ts';
import { ELSEWHERE } from './clinic-list.tsx';
import { ConsultChat } from '../chat/index.ts';
import { downloadBytes } from '../../lib/download.ts';
import { NoteBody } from '../note/index.ts';

const EXPORTS = [
  { format: 'txt', label: 'Export .txt' },
  { format: 'rtf', label: 'Export .rtf' },
  { format: 'pdf', label: 'Export .pdf' },
] as const;

async function copyClinicNote(key: string): Promise<CopyOutcome> {
  const formats = await api.clinic.noteFormats({ key });
  const { written } = await api.clipboard.write({ text: formats.text, html: formats.html, rtf: formats.rtf });
  return written ? 'all' : writeFlavours(formats);
}

/**
 * Read for the vet signed in, again for the next one: left open through a Switch user (a
 * recording going on keeps the window), the last vet's note is not shown to a vet of another
 * clinic, nor to no one.
 */
export function ClinicNoteView({ noteKey }: { noteKey: string }) {
  const vet = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? '') : ''));
  return <VetClinicNote key={vet} noteKey={noteKey} />;
}

function VetClinicNote({ noteKey }: { noteKey: string }) {
  const go = useNav((s) => s.go);
  // What was read, with the key it was read for: another note opened shows nothing of this one.
  const [read, setRead] = useState<{ key: string; note: ClinicNote | null; error: string | null } | null>(null);
  const note = read?.key === noteKey ? read.note : null;
  const error = read?.key === noteKey ? read.error : null;
  const [feedback, setFeedback] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  useEffect(() => {
    let current = true;
    api.clinic
      .note({ key: noteKey })
      .then((n) => current && setRead({ key: noteKey, note: n, error: null }))
      .catch((e: unknown) => current && setRead({ key: noteKey, note: null, error: (e as Error).message }));
    return () => {
      current = false;
    };
  }, [noteKey]);

  async function copy() {
    try {
      setFeedback({ kind: 'ok', text: COPY_WORDS[await copyClinicNote(noteKey)] });
    } catch (e) {
      setFeedback({
        kind: 'error',
        text: `The note could not be copied (${(e as Error).message}). Select the text and press Ctrl+C instead.`,
      });
    }
  }

  async function exportAs(format: (typeof EXPORTS)[number]['format']) {
    try {
      const file = await api.clinic.export({ key: noteKey, format });
      downloadBytes(file.data, file.fileName, file.mimeType);
      setFeedback({ kind: 'ok', text: `Exported: ${file.fileName}` });
    } catch (e) {
      setFeedback({ kind: 'error', text: (e as Error).message });
    }
  }

  const title = note?.patientName ?? (note?.templateName ? `${note.templateName} note` : 'Note');
  return (
    <section className="note-view clinic-note" aria-labelledby="note-view-title">
      <button type="button" className="link back" onClick={() => go({ name: 'consults' })}>
        ← Back to Consults
      </button>
      {error ? (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      ) : note === null ? (
        <p className="muted" role="status" aria-busy="true">
          Reading the note from the service…
        </p>
      ) : (
        <>
          <h1 id="note-view-title">{title}</h1>
          <p className="muted note-meta">
            {ELSEWHERE}
            {note.sessionDate && ` · ${note.sessionDate}`}
            {note.patientName && note.templateName && ` · ${note.templateName}`}
          </p>
          <div className="note-toolbar" role="group" aria-label="Actions on the note">
            <button type="button" className="primary big" onClick={() => void copy()}>
              Copy note
            </button>
            <button type="button" onClick={() => window.print()}>
              Print
            </button>
            {EXPORTS.map((e) => (
              <button key={e.format} type="button" onClick={() => void exportAs(e.format)}>
                {e.label}
              </button>
            ))}
            <p
              className={`note-feedback ${feedback?.kind === 'error' ? 'field-error' : ''}`}
              role="status"
              aria-live="polite"
            >
              {feedback?.text}
            </p>
          </div>
          <section className="panel note-page" aria-label="Note">
            {note.note.trim() === '' ? (
              <p className="muted">The service sent an empty note.</p>
            ) : (
              <NoteBody text={note.note} figures />
            )}
          </section>
          {note.note.trim() !== '' && <ConsultChat id={note.key} from="clinic" />}
        </>
      )}
    </section>
  );
}
