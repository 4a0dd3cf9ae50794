// One consult's note: read it in large type, copy it in one click, edit it, export it, listen
// to the recording, or send it to the differentials panel.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { api } from '../../api.ts';
import { useConsults } from '../../stores/consults.ts';
import { useNav } from '../../stores/nav.ts';
import { useSettings } from '../../stores/settings.ts';
import { consultStatus, consultTitle, formatDuration, timeOfDay } from '../../lib/consult-status.ts';
import { PatientDetails, RenameForm } from './patient-details.tsx';
import { ConfirmInline } from '../../components/confirm-inline.tsx';
import { MoreItemsContext, type MenuItem } from './more-menu.tsx';
import { NoteAudio } from './note-audio.tsx';
import { DocumentTabs } from './document-tabs.tsx';
import { NoteReader } from './note-reader.tsx';
import { ConsultTrail } from './consult-trail.tsx';
import { PetTabs } from './pet-tabs.tsx';
import { noteDate } from './note-date.ts';
import { useFocusOnOpen } from './focus-on-open.ts';
import { useAction } from '../../hooks/use-action.ts';
import './note.css';

export function NoteView({ id }: { id: string }) {
  const loaded = useConsults((s) => s.loaded);
  const consult = useConsults((s) => s.byId[id]);
  const go = useNav((s) => s.go);
  const [listError, setListError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  // The id the list was read afresh for: a consult not in the list is gone only after that.
  const [checkedFor, setCheckedFor] = useState<string | null>(null);

  useEffect(() => {
    const state = useConsults.getState();
    if (!state.loaded || !state.byId[id]) {
      state
        .load()
        .then(() => setCheckedFor(id))
        .catch((e: unknown) => setListError((e as Error).message));
    }
    // The retention period is named when the audio is gone.
    if (useSettings.getState().settings === null)
      useSettings
        .getState()
        .load()
        .catch(() => {});
  }, [id, reloads]);

  let body;
  if (!loaded && listError) {
    body = (
      <div className="notice notice-error" role="alert">
        <p>This consult could not be loaded: {listError}</p>
        <button
          type="button"
          onClick={() => {
            setListError(null);
            setReloads((n) => n + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  } else if (!loaded || (!consult && checkedFor !== id)) {
    body = (
      <p className="muted" role="status" aria-busy="true">
        Loading the note…
      </p>
    );
  } else if (!consult) {
    body = (
      <>
        <h1>Note</h1>
        <p className="notice notice-warning" role="alert">
          This consult is not on this computer any more; it may have been deleted.
        </p>
      </>
    );
  } else {
    // Keyed: another pet's tab opens a consult of its own, with nothing of this one's state.
    body = <ConsultNote key={consult.recording.id} consult={consult} />;
  }

  return (
    <section className="note-view" aria-labelledby="note-view-title">
      <button type="button" className="link back" onClick={() => go({ name: 'consults' })}>
        ← Back to Consults
      </button>
      {body}
    </section>
  );
}

function ConsultNote({ consult }: { consult: ConsultInfo }) {
  const { recording, job } = consult;
  const title = consultTitle(recording);
  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);
  const status = consultStatus(consult, overdueMinutes === undefined ? {} : { overdueMinutes });
  const { busy: retrying, run } = useAction();
  const retry = () => run('Could not retry', () => api.consults.retry({ id: recording.id }));
  const askAgain = () => run('Could not ask the service again', () => api.consults.askAgain({ id: recording.id }));
  const [renaming, setRenaming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusOnOpen(heading, true);
  const [deleting, setDeleting] = useState(false);
  const live = recording.state === 'recording' || recording.state === 'paused';
  const remove = () =>
    run(`Could not delete "${title}"`, async () => {
      await api.consults.delete({ id: recording.id });
      useNav.getState().go({ name: 'consults' });
    });
  // Once the note is here, the patient's details are in the title and on paper: renaming and
  // deleting wait in the note's "More" menu.
  const ready = job?.hasNote === true;
  const menu = useMemo<MenuItem[]>(
    () =>
      ready
        ? [
            { label: 'Rename', onSelect: () => setRenaming(true) },
            // A colleague's consult offers no Delete: its row says who may delete it.
            ...(live || consult.deleteRefused
              ? []
              : [{ label: 'Delete', onSelect: () => setDeleting(true), danger: true }]),
          ]
        : [],
    [ready, live, consult.deleteRefused],
  );

  const note = job?.hasNote ? (
    <NoteReader consult={consult} />
  ) : (
    <div
      className={`notice ${status.tone === 'error' ? 'notice-error' : status.tone === 'warning' ? 'notice-warning' : ''}`}
      role="status"
    >
      <p>The note is not ready yet: {status.text}</p>
      {job?.state === 'failed' &&
        job.error?.code !== 'patient_name_required' &&
        // A colleague's unsent consult: who may retry it, said before any click.
        (consult.retryRefused ? (
          <p>{consult.retryRefused}</p>
        ) : (
          <button type="button" className="primary" disabled={retrying} onClick={() => void retry()}>
            Retry
          </button>
        ))}
      {job?.overdue &&
        job.state === 'scribe_requested' &&
        (consult.askAgainRefused ? (
          <p>{consult.askAgainRefused}</p>
        ) : (
          <button type="button" className="primary" disabled={retrying} onClick={() => void askAgain()}>
            Ask again
          </button>
        ))}
    </div>
  );

  return (
    <>
      <h1 id="note-view-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      <p className="muted note-meta">
        {noteDate(recording.startedAt)}, <time dateTime={recording.startedAt}>{timeOfDay(recording.startedAt)}</time> ·{' '}
        {formatDuration(recording.durationMs)}
        {recording.consentAt && (
          <>
            {' · '}Pet owner consented to recording at{' '}
            <time dateTime={recording.consentAt}>{timeOfDay(recording.consentAt)}</time>
          </>
        )}
      </p>
      <PetTabs consult={consult} />
      {!ready && <PatientDetails consult={consult} />}
      {renaming && <RenameForm consult={consult} onDone={() => setRenaming(false)} />}
      {deleting && (
        <ConfirmInline
          message={`Delete "${title}"? Its audio and its note will be deleted from this computer. This cannot be undone.`}
          confirmLabel="Yes, delete"
          busy={retrying}
          onConfirm={() => void remove()}
          onCancel={() => setDeleting(false)}
        />
      )}
      <MoreItemsContext.Provider value={menu}>
        {job ? <DocumentTabs consult={consult} note={note} /> : note}
      </MoreItemsContext.Provider>
      <NoteAudio id={recording.id} audioDeleted={job?.audioDeleted ?? false} />
      <ConsultTrail id={recording.id} />
    </>
  );
}
