// The note's bar for the clinic's practice-management system (Provet): which appointment and
// patient the consult is linked to, where the note stands in the patient's record there, and
// "Send to Provet" (or "Update in Provet" once the note was edited after it was sent). Shown only
// when this computer has a PIMS and the consult was linked to one of its appointments: a vet who
// never set one up sees the note as before. Main sends the note as the vet last saved it, so the
// button waits while the editor holds changes not saved yet. The state is main's, kept in the
// PIMS store and followed through its `pims:note` event (a visit checked in later, a send done).
import { useEffect, useId, useState } from 'react';
import type { PimsNoteState } from '../../../../shared/pims.ts';
import { api } from '../../api.ts';
import { timeOfDay } from '../../lib/consult-status.ts';
import { pimsNoteCall, usePims } from '../../stores/pims.ts';
import './pims-bar.css';

export function PimsBar({ id, unsavedEdit, refresh }: { id: string; unsavedEdit: boolean; refresh: unknown }) {
  const name = usePims((s) => s.status?.name ?? null);
  const known = usePims((s) => s.status !== null);
  const state = usePims((s) => s.notes[id]);
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | null>(null);
  const ids = useId();

  useEffect(() => {
    if (!known)
      void usePims
        .getState()
        .load()
        .catch(() => undefined);
  }, [known]);
  // Read again when the note's text changes: an edit saved after sending offers "Update in …".
  useEffect(() => {
    void usePims
      .getState()
      .loadNote(id)
      .catch(() => undefined);
  }, [id, refresh]);

  if (name === null || !state?.linked) return null;

  async function send() {
    if (sending || unsavedEdit || !state?.canSend) return;
    setSending(true);
    setSendError(null);
    try {
      await pimsNoteCall(id, () => api.pims.send({ id }));
    } catch (e) {
      setSendError((e as Error).message);
    } finally {
      setSending(false);
    }
  }

  const { linked } = state;
  const shownState = sending ? 'sending' : state.state;
  const action = sendAction(state, name);
  const blocked = unsavedEdit || !state.canSend || shownState === 'sending';
  const why = unsavedEdit ? `Save or discard your changes first: the note as saved is what goes to ${name}.` : null;
  const problem = sendError ?? state.problem;

  return (
    <div className={`pims-bar pims-${shownState}`} role="group" aria-label={`${name} record`}>
      <p className="pims-visit">
        <strong>{name}:</strong> {linked.patient ? `${linked.patient.name}, ` : ''}the{' '}
        <time dateTime={linked.start}>{timeOfDay(linked.start)}</time> appointment
      </p>
      <p className="pims-state" role="status">
        {stateWords(shownState, state, name)}
      </p>
      {action && (
        <button
          type="button"
          className="primary"
          aria-disabled={blocked}
          aria-describedby={why ? `${ids}-why` : undefined}
          onClick={() => void send()}
        >
          {action}
        </button>
      )}
      {why && action && (
        <p id={`${ids}-why`} className="pims-why muted">
          {why}
        </p>
      )}
      {problem && (
        // Announced when a send went wrong; a standing reason (signed out, not ready) is only read.
        <p className="pims-problem" role={sendError !== null || state.state === 'failed' ? 'alert' : undefined}>
          {problem}
        </p>
      )}
    </div>
  );
}

/** The button's words, or none where there is nothing to send. */
function sendAction(state: PimsNoteState, name: string): string | null {
  if (state.state === 'not-sent' || state.state === 'failed') return `Send to ${name}`;
  if (state.state === 'sent' && state.changedSinceSent) return `Update in ${name}`;
  return null;
}

/** Where the note stands, in words. */
function stateWords(shown: PimsNoteState['state'], state: PimsNoteState, name: string): string {
  switch (shown) {
    case 'sending':
      return 'Sending…';
    case 'waiting-check-in':
      return `Waiting for check-in in ${name}: the note goes in when the visit is opened.`;
    case 'sent': {
      const since = state.sentAt ? ` since ${timeOfDay(state.sentAt)}` : '';
      const by = state.sentBy ? ` (${state.sentBy})` : '';
      const edited = state.changedSinceSent ? ` Edited since: ${name} has the earlier version.` : '';
      return `In ${name}${since}${by}.${edited}`;
    }
    case 'failed':
      return `Not in ${name}: the note was not sent.`;
    case 'not-sent':
      return `Not sent to ${name} yet.`;
  }
}
