// The header's "Switch user": hands the computer to the next vet. The leaving vet's consults in
// flight go on with their own sign-in (main keeps it in the background). During a recording it
// asks first: stop and keep it, keep it recording (it stays the leaving vet's), or cancel. The
// question follows the recorder as it is, not as it was at the click: a recording already
// ending (Stop pressed a moment before) is waited for and asks nothing, and a question whose
// recording ends meanwhile (the tray, the longest recording) goes away and the switch goes on.
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import {
  isCapturing,
  useRecorder,
  whenRecordingEnded,
  whenRecordingStarted,
  type RecorderStatus,
} from '../../stores/recorder.ts';
import { useSession } from '../../stores/session.ts';
import { recorderStop, switchUser } from '../../stores/switch-user.ts';
import { useOwnConsultsUnderWay } from './under-way.ts';
import './switch-user.css';

/**
 * How long the switch waits for a recording that is ending to be kept. Its last chunks reach
 * main in a second or two; one waiting out a full disk is not waited for, and ends as its
 * vet's all the same (a recording is its owner's whoever is signed in).
 */
const STOPPING_WAIT_MS = 10_000;

/**
 * How long the switch waits for a recording whose Start was pressed a moment before (the
 * microphone opening) to be made in main: made after the switch, it would be no one's, and any
 * vet signing in next could take it as theirs. A start stuck longer fails on its own.
 */
const STARTING_WAIT_MS = 10_000;

/** A recording the vet could still keep going or stop: what the question is about. */
const stillGoing = (status: RecorderStatus) => isCapturing(status) && status !== 'stopping';

export function SwitchUserButton() {
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const user = useSession((s) => s.session.user);
  const status = useRecorder((s) => s.status);
  // A recording a colleague kept going when they switched user: theirs, not this vet's.
  const owner = useRecorder((s) => s.owner);
  const othersName = owner && user && owner.id !== user.id ? owner.name : null;
  const going = stillGoing(status);
  const waiting = useOwnConsultsUnderWay();
  const who = user?.name || user?.email || 'The vet signed in';
  const note =
    waiting === 0
      ? `${who} switched user. Sign in to go on.`
      : `${who} switched user; ${waiting === 1 ? 'their consult is' : `their ${waiting} consults are`} being written with their own sign-in.`;
  const go = async (recording: 'stop' | 'keep' | 'none') => {
    setAsking(false);
    setBusy(true);
    try {
      await whenRecordingStarted(STARTING_WAIT_MS);
      if (recording === 'stop') await recorderStop.stop?.();
      // A recording that is ending is kept before the hand-over, so it is finished and sent
      // with its vet still in front.
      if (recording !== 'keep') await whenRecordingEnded(STOPPING_WAIT_MS);
      await switchUser({ note });
    } finally {
      setBusy(false);
    }
  };

  // The recording ends while the question is open (the tray, the longest recording): nothing
  // is left to ask, and the switch the vet asked for goes on.
  const goLatest = useRef(go);
  useEffect(() => {
    goLatest.current = go;
  });
  useEffect(() => {
    if (!asking) return;
    let done = false;
    const ended = (s: RecorderStatus) => {
      if (done || stillGoing(s)) return;
      done = true;
      void goLatest.current('none');
    };
    const unsubscribe = useRecorder.subscribe((s) => ended(s.status));
    // It may have ended between the click and this subscription.
    void Promise.resolve().then(() => ended(useRecorder.getState().status));
    return () => {
      done = true;
      unsubscribe();
    };
  }, [asking]);

  return (
    <>
      <button
        type="button"
        disabled={busy}
        aria-busy={busy}
        onClick={() => (going ? setAsking(true) : void go('none'))}
      >
        Switch user
      </button>
      {asking &&
        going &&
        createPortal(
          <Question othersName={othersName} onAnswer={(a) => void go(a)} onCancel={() => setAsking(false)} />,
          document.body,
        )}
    </>
  );
}

/**
 * The question, under the header across the window rather than squeezed into it, with what
 * each answer does. The keyboard lands on Cancel, which loses nothing; Escape is Cancel too.
 */
function Question({
  othersName,
  onAnswer,
  onCancel,
}: {
  /** The vet whose recording it is, when not the one in front. */
  othersName: string | null;
  onAnswer: (a: 'stop' | 'keep') => void;
  onCancel: () => void;
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const opener = useRef<Element | null>(null);
  useEffect(() => {
    opener.current = document.activeElement;
    cancelRef.current?.focus();
    // Back to Switch user when the question goes unanswered.
    return () => {
      if (document.activeElement === document.body && opener.current instanceof HTMLElement) opener.current.focus();
    };
  }, []);
  return (
    <div
      className="switch-user-question"
      role="alertdialog"
      aria-modal="false"
      aria-labelledby="switch-user-question"
      aria-describedby="switch-user-answers"
      onKeyDown={(e) => {
        if (e.key === 'Escape') onCancel();
      }}
    >
      <p id="switch-user-question">
        <strong>A recording is going. Switch user?</strong>
      </p>
      <p id="switch-user-answers">
        {othersName
          ? `It is ${othersName}’s recording. Stop and keep ends it now and keeps it as theirs. Keep recording lets it go on as theirs; the next vet can sign in meanwhile.`
          : 'Stop and keep ends it now and sends it as yours. Keep recording lets it go on as yours; the next vet can sign in meanwhile.'}
      </p>
      <div className="row">
        <button type="button" className="primary" onClick={() => onAnswer('stop')}>
          Stop and keep
        </button>
        <button type="button" onClick={() => onAnswer('keep')}>
          Keep recording
        </button>
        <button ref={cancelRef} type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
