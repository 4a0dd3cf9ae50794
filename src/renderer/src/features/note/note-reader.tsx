// A finished note: shown with its sections, copied (text, HTML and RTF at once), edited,
// exported (.txt, .rtf, .pdf), or sent on to the differentials panel. The vet's edit is kept
// beside the service's text in main; the text the vet sees (the edit when there is one) is
// what every action uses. An edit not yet saved is kept in main as a draft as it is typed, so
// leaving the note, a reload or a crash loses nothing: the note opens in the editor again. Nothing the service wrote is inserted as HTML: the note is read
// into elements whose text React sets.
import { useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { api } from '../../api.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { ConfirmInline } from '../../components/confirm-inline.tsx';
import { EditedBy } from './consult-trail.tsx';
import { COPY_WORDS, copyNote } from '../../lib/copy-note.ts';
import { downloadBytes } from '../../lib/download.ts';
import { NoteBody } from './note-body.tsx';
import { documentLabels, editedElsewhere, inSentence, NOTE_KEY, ShowDocumentContext } from './document-names.ts';
import { MoreMenu, useMoreItems, type MenuItem } from './more-menu.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useTemplates } from '../../stores/templates.ts';
import { useSession } from '../../stores/session.ts';
import { whenLeaving } from '../../stores/switch-user.ts';
import { useClinicName } from './clinic-name.ts';
import { SectionEditor } from './section-editor.tsx';
import { ConsultAnswers } from '../answers/index.ts';
import { ConsultChat } from '../chat/index.ts';
import { figuresLine, findFigures } from '../../../../shared/note/figures.ts';

type Loaded =
  | { key: string; note: string | null; editedNote: string | null; othersEditing: string[]; error?: undefined }
  | { key: string; error: string };
type Feedback = { kind: 'ok' | 'error'; text: string } | null;

const COPIED_FOR_MS = 4000;

const EXPORTS = [
  { format: 'txt', label: 'Export .txt' },
  { format: 'rtf', label: 'Export .rtf' },
  { format: 'pdf', label: 'Export .pdf' },
] as const;

/**
 * The consult's note, or with `documentId` one more document of it (its own text, edit, draft and
 * files). Mounted afresh for each (a `key` per document), so no edit follows the vet to another tab.
 */
export function NoteReader({ consult, documentId }: { consult: ConsultInfo; documentId?: string }) {
  const id = consult.recording.id;
  // Every call names the document it is about; none names the consult's note.
  const which = useMemo(() => (documentId === undefined ? { id } : { id, documentId }), [id, documentId]);
  const document = documentId === undefined ? undefined : consult.job?.documents.find((d) => d.id === documentId);
  // The note is read again whenever main says the job changed (an edit saved here or elsewhere).
  const key = `${id}@${(document ?? consult.job)?.updatedAt ?? ''}`;
  const go = useNav((s) => s.go);
  const aroundItems = useMoreItems();
  const showDocument = useContext(ShowDocumentContext);
  const templates = useTemplates((s) => s.items);
  // The template's name goes on paper and names the documents: the list is asked for once.
  useEffect(() => {
    if (useTemplates.getState().status === 'idle') void useTemplates.getState().load();
  }, []);
  const ownKey = documentId ?? NOTE_KEY;
  const labels = consult.job
    ? documentLabels(consult.job, (t) => templates.find((x) => x.id === t)?.name ?? null)
    : new Map<string, string>();
  // The words of its actions: "Copy note", "Copy discharge instructions".
  const name = documentId === undefined ? 'note' : inSentence(labels.get(documentId) ?? 'document', false);
  const elsewhere = consult.job ? editedElsewhere(consult.job, ownKey, labels) : [];
  const { busy: asking, run } = useAction();
  // Only a document is asked again here: the same template, for the same recording session.
  const askAgain =
    document === undefined
      ? null
      : () =>
          run('Could not ask for the document again', async () => {
            const answer = await api.consults.addDocument({
              id,
              templateId: document.templateId,
              ...(document.name ? { templateName: document.name } : {}),
              again: document.id,
            });
            const added = answer.job?.documents.at(-1);
            if (added && added.id !== document.id) showDocument(added.id);
          });
  const editorId = useId();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [retries, setRetries] = useState(0);
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [confirmRevert, setConfirmRevert] = useState(false);
  const [feedback, setFeedback] = useState<Feedback>(null);
  // A draft kept from before (another view, a reload, a crash): when it was typed.
  const [keptFrom, setKeptFrom] = useState<string | null>(null);
  // The draft as typed, not yet handed to main (written after a short pause, or on leaving).
  const unsent = useRef<string | null>(null);

  useEffect(() => {
    let current = true;
    api.consults
      .draft(which)
      .then((d) => {
        if (!current || d === null) return;
        setDraft(d.text);
        setKeptFrom(d.savedAt);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [which]);

  useEffect(() => {
    if (draft === null || unsent.current === null) return;
    const timer = setTimeout(() => {
      const text = unsent.current;
      unsent.current = null;
      if (text !== null)
        void api.consults
          .saveDraft({ ...which, text })
          .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not keep your changes'));
    }, 400);
    return () => clearTimeout(timer);
  }, [draft, which]);

  // Leaving the note with keys still unsent: they go to main at once.
  useEffect(
    () => () => {
      const text = unsent.current;
      unsent.current = null;
      if (text !== null) void api.consults.saveDraft({ ...which, text }).catch(() => undefined);
    },
    [which],
  );

  // Switch user or sign-out: the keys still unsent go to main first, while the vet who typed them
  // is still the one signed in (leaving the note afterwards would send them for no one).
  useEffect(
    () =>
      whenLeaving(async () => {
        const text = unsent.current;
        unsent.current = null;
        if (text !== null) await api.consults.saveDraft({ ...which, text });
      }),
    [which],
  );

  function type(text: string) {
    unsent.current = text;
    setDraft(text);
  }

  useEffect(() => {
    let current = true;
    api.consults
      .note(which)
      .then(
        (n) => current && setLoaded({ key, note: n.note, editedNote: n.editedNote, othersEditing: n.othersEditing }),
      )
      .catch((e: unknown) => current && setLoaded({ key, error: (e as Error).message }));
    return () => {
      current = false;
    };
  }, [which, key, retries]);

  useEffect(() => {
    if (feedback?.kind !== 'ok') return;
    const timer = setTimeout(() => setFeedback(null), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [feedback]);

  // While a newer copy is on its way the one in hand stays on screen; only the first load waits.
  if (loaded === null || !loaded.key.startsWith(`${id}@`)) {
    return (
      <p className="muted" role="status" aria-busy="true">
        Loading the note…
      </p>
    );
  }
  if (loaded.error !== undefined) {
    return (
      <div className="notice notice-error" role="alert">
        <p>The note could not be loaded: {loaded.error}</p>
        <button type="button" onClick={() => setRetries((n) => n + 1)}>
          Try again
        </button>
      </div>
    );
  }

  const serviceNote = loaded.note;
  const original = serviceNote ?? '';
  const edited = loaded.editedNote !== null;
  const text = loaded.editedNote ?? original;
  const { othersEditing } = loaded;
  // Another vet's unsaved changes are theirs alone: the vet in front is told whose, never what.
  const othersNotice = othersEditing.length > 0 && (
    <p className="notice notice-info" role="note">
      {`${othersEditing.join(' and ')} ${othersEditing.length === 1 ? 'has' : 'have'} unsaved changes to this ${name}; only they can see them.`}
    </p>
  );

  async function save(next: string | null, what: string): Promise<boolean> {
    setSaving(true);
    try {
      await api.consults.saveNote({ ...which, text: next });
      setLoaded({ key, note: serviceNote, editedNote: next, othersEditing });
      return true;
    } catch (e) {
      useNotifications.getState().fail(e, what);
      return false;
    } finally {
      setSaving(false);
    }
  }

  async function saveDraft() {
    if (draft === null) return;
    unsent.current = null;
    // Saving the service's text unchanged is no edit at all. Main drops the kept draft with it.
    if (await save(draft === original ? null : draft, 'Could not save the note')) {
      setDraft(null);
      setKeptFrom(null);
    }
  }

  async function discard() {
    unsent.current = null;
    setDraft(null);
    setKeptFrom(null);
    await api.consults
      .saveDraft({ ...which, text: null })
      .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not throw the changes away'));
  }

  async function revert() {
    if (await save(null, 'Could not go back to the original note')) setConfirmRevert(false);
  }

  async function copy() {
    setFeedback(null);
    try {
      setFeedback({ kind: 'ok', text: COPY_WORDS[await copyNote(id, documentId)] });
    } catch (e) {
      setFeedback({
        kind: 'error',
        text: `The note could not be copied (${(e as Error).message}). Select the text and press Ctrl+C instead.`,
      });
    }
  }

  async function print() {
    try {
      // Noted before printing; when it cannot be, nothing is printed and the vet is told.
      await api.consults.noteUsed({ ...which, action: 'printed' });
      window.print();
    } catch (e) {
      setFeedback({ kind: 'error', text: (e as Error).message });
    }
  }

  async function exportAs(format: (typeof EXPORTS)[number]['format']) {
    try {
      const file = await api.consults.export({ ...which, format });
      downloadBytes(file.data, file.fileName, file.mimeType);
      setFeedback({ kind: 'ok', text: `Exported: ${file.fileName}` });
    } catch (e) {
      setFeedback({ kind: 'error', text: `The .${format} file could not be made: ${(e as Error).message}` });
    }
  }

  if (draft !== null) {
    return (
      <div className="note-editor panel">
        <h2 id={editorId} className="note-editor-title">
          Edit {name}
        </h2>
        {othersNotice}
        {keptFrom && (
          <p className="notice notice-info" role="status">
            Your changes from {new Date(keptFrom).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })} were
            kept. Save them, or discard them.
          </p>
        )}
        <SectionEditor text={draft} onChange={type} disabled={saving} labelledBy={editorId} />
        <p className="field-hint">
          Each section of the note has its own box, under its heading. Your changes are kept as you type, until you save
          or discard them; the service’s original stays kept.
        </p>
        <div className="row note-toolbar">
          <button type="button" className="primary" disabled={saving} onClick={() => void saveDraft()}>
            Save
          </button>
          <button type="button" disabled={saving || draft === original} onClick={() => type(original)}>
            Revert to the service’s note
          </button>
          <button type="button" disabled={saving} onClick={() => void discard()}>
            Discard changes
          </button>
        </div>
      </div>
    );
  }

  // Read mode only (not at every key typed in the editor); counted where they are marked: the
  // note's text, not its headings.
  const checkLine = figuresLine(
    findFigures(
      text
        .split('\n')
        .filter((l) => !/^#{1,6} /.test(l))
        .join('\n'),
    ),
  );
  const more: MenuItem[] = [
    { label: `Edit ${name}`, onSelect: () => type(text) },
    ...EXPORTS.map((e) => ({ label: e.label, onSelect: () => void exportAs(e.format) })),
    // Differentials are asked of a clinical note, not of what the owner takes home.
    ...(documentId === undefined
      ? [
          {
            label: 'Get differentials from this note',
            onSelect: () =>
              go({ name: 'ddx', consult: { id, patient: consult.recording.patientName ?? '', note: text } }),
          },
        ]
      : []),
    ...aroundItems,
  ];
  return (
    <>
      <div className="note-toolbar" role="group" aria-label={`Actions on the ${name}`}>
        <button type="button" className="primary big" onClick={() => void copy()}>
          Copy {name}
        </button>
        {/* The window's own print (Electron's too): the print stylesheet leaves the note alone on the page. */}
        <button type="button" onClick={() => void print()}>
          Print
        </button>
        {checkLine && (
          <p className="note-figures" role="note">
            {checkLine}
          </p>
        )}
        <MoreMenu items={more} />
        <p
          className={`note-feedback ${feedback?.kind === 'error' ? 'field-error' : ''}`}
          role="status"
          aria-live="polite"
        >
          {feedback?.text}
        </p>
      </div>
      <ConsultAnswers id={id} patient={consult.recording.patientName ?? ''} />
      {othersNotice}
      {elsewhere.length > 0 && (
        <div className="notice notice-info note-elsewhere" role="note">
          <p>Written from the recording: your edit to the {elsewhere.join(' and the ')} is not in it.</p>
          {askAgain && (
            <button type="button" disabled={asking} onClick={() => void askAgain()}>
              Ask again
            </button>
          )}
        </div>
      )}
      {edited && (
        <div className="row note-edited">
          <EditedBy id={id} {...(documentId === undefined ? {} : { documentId })} refresh={text} />
          <span className="muted">The service’s original is kept.</span>
          {!confirmRevert && (
            <button type="button" className="link" onClick={() => setConfirmRevert(true)}>
              Back to the original
            </button>
          )}
        </div>
      )}
      {confirmRevert && (
        <ConfirmInline
          message="Throw away your changes and show the service’s original note again?"
          confirmLabel="Yes, back to the original"
          busy={saving}
          onConfirm={() => void revert()}
          onCancel={() => setConfirmRevert(false)}
        />
      )}
      <PrintHeader consult={consult} template={labels.get(ownKey) ?? null} />
      <section className="panel note-page" aria-label="Note">
        {text.trim() === '' ? (
          <p className="muted">The service sent an empty note.</p>
        ) : (
          <NoteBody text={text} figures />
        )}
      </section>
      <ConsultChat id={id} {...(documentId === undefined ? {} : { documentId })} />
    </>
  );
}

/** On paper only: whose note it is, for whom and when, above the note. */
function PrintHeader({ consult, template }: { consult: ConsultInfo; template: string | null }) {
  const clinic = useClinicName();
  const me = useSession((s) => s.session.user);
  const { recording } = consult;
  const owner = recording.recordedBy ?? me;
  const vet = owner ? owner.name || owner.email : null;
  const when = new Date(recording.startedAt);
  const facts: [string, string | null][] = [
    ['Clinic', clinic],
    ['Vet', vet],
    ['Patient', recording.patientName?.trim() || null],
    [
      'Date',
      `${when.toLocaleDateString([], { day: 'numeric', month: 'long', year: 'numeric' })}, ${when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`,
    ],
    ['Template', template],
  ];
  return (
    <dl className="print-header">
      {facts.map(([term, value]) =>
        value ? (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}
