// A finished note: shown with its sections, copied (text, HTML and RTF at once), edited,
// exported (.txt, .rtf, .pdf), or sent on to the differentials panel. The vet's edit is kept
// beside the service's text in main; the text the vet sees (the edit when there is one) is
// what every action uses. An edit not yet saved is kept in main as a draft as it is typed
// (use-draft-autosave.ts), so leaving the note, a reload or a crash loses nothing: the note
// opens in the editor again. Nothing the service wrote is inserted as HTML: the note is read
// into elements whose text React sets.
import { useContext, useEffect, useMemo, useState } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { api } from '../../api.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { ConfirmInline } from '../../components/confirm-inline.tsx';
import { EditedBy } from './consult-trail.tsx';
import { copyNote } from '../../lib/copy-note.ts';
import { documentLabels, editedElsewhere, inSentence, NOTE_KEY, ShowDocumentContext } from './document-names.ts';
import { MoreMenu, useMoreItems, type MenuItem } from './more-menu.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useTemplates } from '../../stores/templates.ts';
import { useSession } from '../../stores/session.ts';
import { useClinicName } from './clinic-name.ts';
import { NoteEditor } from './note-editor.tsx';
import { ConsultAnswers } from '../answers/index.ts';
import { ConsultChat } from '../chat/index.ts';
import { doseMismatches, figuresLine, findFigures } from '../../../../shared/note/figures.ts';
import { useNoteText } from './use-note-text.ts';
import { useDraftAutosave } from './use-draft-autosave.ts';
import { NOTE_EXPORTS, useNoteActions } from './use-note-actions.ts';
import { NoteActionBar, NotePage } from './note-page.tsx';
import { PimsBar } from './pims-bar.tsx';
import { noteDate } from './note-date.ts';

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
  const { loaded, retry, saved } = useNoteText(which, key);
  const edit = useDraftAutosave(which);
  const actions = useNoteActions({
    copy: () => copyNote(id, documentId),
    // Noted before printing; when it cannot be, nothing is printed and the vet is told.
    printing: () => api.consults.noteUsed({ ...which, action: 'printed' }),
    exportAs: (format) => api.consults.export({ ...which, format }),
  });
  const [saving, setSaving] = useState(false);
  const [confirmRevert, setConfirmRevert] = useState(false);

  if (loaded === null) {
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
        <button type="button" onClick={retry}>
          Try again
        </button>
      </div>
    );
  }

  const original = loaded.note ?? '';
  const edited = loaded.editedNote !== null;
  const text = loaded.editedNote ?? original;
  const othersNotice = <OthersEditing names={loaded.othersEditing} what={name} />;

  async function save(next: string | null, what: string): Promise<boolean> {
    setSaving(true);
    try {
      await api.consults.saveNote({ ...which, text: next });
      saved(next);
      return true;
    } catch (e) {
      useNotifications.getState().fail(e, what);
      return false;
    } finally {
      setSaving(false);
    }
  }

  // The note (not a further document) goes into the patient's record in the PIMS, as last saved.
  const pimsBar =
    documentId === undefined ? (
      <PimsBar id={id} unsavedEdit={edit.draft !== null && edit.draft !== text} refresh={text} />
    ) : null;

  if (edit.draft !== null) {
    const draft = edit.draft;
    return (
      <>
        {pimsBar}
        <NoteEditor
          name={name}
          draft={draft}
          keptFrom={edit.keptFrom}
          saving={saving}
          notice={othersNotice}
          onType={edit.type}
          onSave={async () => {
            edit.sent();
            // Saving the service's text unchanged is no edit at all. Main drops the kept draft with it.
            if (await save(draft === original ? null : draft, 'Could not save the note')) edit.closed();
          }}
          onRevert={draft === original ? null : () => edit.type(original)}
          onDiscard={() => void edit.discard()}
        />
      </>
    );
  }

  // Read mode only (not at every key typed in the editor); counted where they are marked: the
  // note's text, not its headings.
  const body = text
    .split('\n')
    .filter((l) => !/^#{1,6} /.test(l))
    .join('\n');
  const checkLine = figuresLine(findFigures(body), doseMismatches(body));
  const more: MenuItem[] = [
    { label: `Edit ${name}`, onSelect: () => edit.type(text) },
    ...NOTE_EXPORTS.map((e) => ({ label: e.label, onSelect: () => void actions.exportAs(e.format) })),
    // Differentials are asked of a clinical note, not of what the pet owner takes home.
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
      {pimsBar}
      <NoteActionBar
        name={name}
        feedback={actions.feedback}
        onCopy={() => void actions.copy()}
        onPrint={() => void actions.print()}
      >
        <MoreMenu items={more} />
        {checkLine && (
          <p className="note-figures" role="note">
            {checkLine}
          </p>
        )}
      </NoteActionBar>
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
          onConfirm={() =>
            void save(null, 'Could not go back to the original note').then((ok) => ok && setConfirmRevert(false))
          }
          onCancel={() => setConfirmRevert(false)}
        />
      )}
      <PrintHeader consult={consult} template={labels.get(ownKey) ?? null} />
      <NotePage text={text} />
      <ConsultChat id={id} {...(documentId === undefined ? {} : { documentId })} />
    </>
  );
}

/** Another vet's unsaved changes are theirs alone: the vet in front is told whose, never what. */
function OthersEditing({ names, what }: { names: string[]; what: string }) {
  if (names.length === 0) return null;
  return (
    <p className="notice notice-info" role="note">
      {`${names.join(' and ')} ${names.length === 1 ? 'has' : 'have'} unsaved changes to this ${what}; only they can see them.`}
    </p>
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
      `${noteDate(recording.startedAt)}, ${when.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`,
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
