// A note from the service, recorded elsewhere: read once from the service and then kept on this
// computer, so it opens offline. Read, copied (text, HTML and RTF), printed and exported as a
// note of this computer is; it is not edited here. Under it, the same conversation about the
// consult as under a note of this computer.
import { useEffect, useRef, useState } from 'react';
import { editedElsewhereLine, NOT_NAMED, SERVICE_ORIGINAL, type ClinicNote } from '../../../../shared/clinic.ts';
import { api } from '../../api.ts';
import { writeFlavours, type CopyOutcome } from '../../lib/copy-note.ts';
import { useNav } from '../../stores/nav.ts';
import { useSession } from '../../stores/session.ts';
import { ELSEWHERE } from './clinic-list.tsx';
import { ConsultChat } from '../chat/index.ts';
import { NOTE_EXPORTS, NoteActionBar, NotePage, noteDate, useFocusOnOpen, useNoteActions } from '../note/index.ts';

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
  const actions = useNoteActions({
    copy: () => copyClinicNote(noteKey),
    exportAs: (format) => api.clinic.export({ key: noteKey, format }),
  });
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

  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnOpen(heading, note !== null);
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
          <h1 id="note-view-title" ref={heading} tabIndex={-1}>
            {title}
          </h1>
          <p className="muted note-meta">
            {ELSEWHERE}
            {note.recordingSessionDate && ` · ${noteDate(note.recordingSessionDate)}`}
            {note.patientName && note.templateName && ` · ${note.templateName}`}
            {!note.patientName && ` · ${NOT_NAMED}`}
          </p>
          {/* The service's API cannot change a note: an edit made where it was recorded stays there, and the clinic relay says so when it runs. */}
          <p className="muted clinic-original">
            {note.editedElsewhere ? editedElsewhereLine(note.editedElsewhere) : SERVICE_ORIGINAL}
          </p>
          <NoteActionBar
            name="note"
            feedback={actions.feedback}
            onCopy={() => void actions.copy()}
            onPrint={() => void actions.print()}
          >
            {NOTE_EXPORTS.map((e) => (
              <button key={e.format} type="button" onClick={() => void actions.exportAs(e.format)}>
                {e.label}
              </button>
            ))}
          </NoteActionBar>
          <NotePage text={note.note} />
          {note.note.trim() !== '' && <ConsultChat id={note.key} from="clinic" />}
        </>
      )}
    </section>
  );
}
