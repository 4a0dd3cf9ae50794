import {
  Activity,
  Suspense,
  useCallback,
  useEffect,
  useLayoutEffect,
  useState,
  type ReactNode,
  type RefCallback,
} from 'react';
import { useOnline } from './hooks/use-online.ts';
import { formatDuration } from './lib/duration.ts';
import { useWide } from './hooks/use-wide.ts';
import { isCapturing, useRecorder } from './stores/recorder.ts';
import { AgentPanel } from './features/agents/index.ts';
// Where the Consults list, the clinic's consults and the note were imported when they were part
// of the window's first script: their sheets keep their place in the cascade (lazy-views.tsx).
import { ClinicNoteView, ConsultsView, layOutAheadSoon, loadViewsWhenIdle, NoteView } from './lazy-views.tsx';
import { initRecorder, RecorderView } from './features/recorder/index.ts';
import { SettingsView } from './features/settings/index.ts';
import {
  RecordingGoesOn,
  SignedOutHeader,
  SignIn,
  SignOutButton,
  SwitchUserButton,
  useSignInAsked,
} from './features/sign-in/index.ts';
import { UpdateBanner } from './features/updates/index.ts';
import { MainNotices } from './components/main-notices.tsx';
import { Toasts } from './components/toasts.tsx';
import { useConsults } from './stores/consults.ts';
import { useNav, type View } from './stores/nav.ts';
import { useNoteReady } from './stores/note-ready.ts';
import { useNotifications } from './stores/notifications.ts';
import { useEngineLink } from './stores/engine-link.ts';
import { useSession } from './stores/session.ts';
import { useSettings } from './stores/settings.ts';
import { readAtSignIn } from './stores/clinic.ts';

const NAV: { name: View['name']; label: string; hint?: string }[] = [
  { name: 'record', label: 'Record' },
  { name: 'consults', label: 'Consults' },
  { name: 'ddx', label: 'Differentials', hint: 'Ctrl+K' },
  { name: 'treatment', label: 'Treatment plans' },
  { name: 'medication', label: 'Medications' },
  { name: 'settings', label: 'Settings' },
];

/**
 * The views. The consults list stays mounted once signed in: while another view is shown it is
 * hidden (React's Activity), and React lays it out ahead at low priority, so opening Consults
 * shows what is already built instead of building thousands of rows' worth of state on the
 * click, and the list comes back with its search and filters as the vet left them. Its
 * effects (the check that nothing was missed, the measuring) run only while it is shown. On a
 * wide window the list has the open note beside it.
 */
function Views({ view, wide, owner }: { view: View; wide: boolean; owner: string | null }) {
  const listShown = view.name === 'consults' || (wide && (view.name === 'note' || view.name === 'clinic-note'));
  const split = wide && listShown;
  return (
    <div className={split ? 'split-view' : 'one-view'}>
      <Activity mode={listShown ? 'visible' : 'hidden'}>
        <div className={split ? 'split-list' : 'whole-list'}>
          {/* One per vet signed in: what one typed there (a patient's name in Search) is never
              shown to the next, though the window stays up through a Switch user while recording. */}
          <Suspense fallback={null}>
            <ConsultsView key={owner ?? ''} />
          </Suspense>
        </div>
      </Activity>
      {/* A view's code is loaded on its first showing, unless idle time brought it already. */}
      <Suspense fallback={<Opening />}>
        {split ? (
          <div className="split-note">{beside(view, owner)}</div>
        ) : (
          !listShown && <OtherView view={view} owner={owner} />
        )}
      </Suspense>
    </div>
  );
}

function Opening() {
  return (
    <p className="panel muted" aria-busy="true">
      Opening…
    </p>
  );
}

/** What a wide window shows beside the consults list. */
function beside(view: View, owner: string | null): ReactNode {
  // One note view per vet signed in, as the list: an edit on screen (the editor's own copy of a
  // draft) is never carried to the next vet, who is shown their own draft from main, or none.
  if (view.name === 'note') return <NoteView key={owner ?? ''} id={view.id} />;
  if (view.name === 'clinic-note') return <ClinicNoteView noteKey={view.key} />;
  return <p className="panel muted split-empty">Open a consult’s note to read it here, beside the list.</p>;
}

function OtherView({ view, owner }: { view: View; owner: string | null }) {
  switch (view.name) {
    case 'record':
      return <RecorderView />;
    case 'note':
      return <NoteView key={owner ?? ''} id={view.id} />;
    case 'clinic-note':
      return <ClinicNoteView noteKey={view.key} />;
    case 'ddx':
      return <AgentPanel agent="ddx" prefill={view.prefill} consult={view.consult} />;
    case 'treatment':
      return <AgentPanel agent="treatment" />;
    case 'medication':
      return <AgentPanel agent="medication" />;
    case 'settings':
      return <SettingsView />;
    case 'consults':
      return null;
  }
}

/** On every other view, a recording under way stays in sight, one click from its Stop. */
function RecordingPill({ onOpen }: { onOpen: () => void }) {
  const status = useRecorder((s) => s.status);
  const elapsedMs = useRecorder((s) => s.elapsedMs);
  const words = status === 'paused' ? 'Paused' : 'Recording';
  return (
    <button
      type="button"
      className={`recording-pill rec-${status}`}
      onClick={onOpen}
      aria-label={`${words} ${formatDuration(elapsedMs)} — open the recorder`}
    >
      <span className="rec-dot" aria-hidden="true" />
      {words} <time>{formatDuration(elapsedMs)}</time>
    </button>
  );
}

/**
 * Keeps `--topbar-height` at the header's height, for the sidebar that stays in view under it:
 * the header grows when its badges wrap in a narrow window.
 */
function useTopbarHeight(): RefCallback<HTMLElement> {
  return useCallback((header: HTMLElement | null) => {
    if (!header || typeof ResizeObserver !== 'function') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() =>
      root.style.setProperty('--topbar-height', `${header.getBoundingClientRect().height}px`),
    );
    observer.observe(header);
    return () => observer.disconnect();
  }, []);
}

/**
 * `firstReads`: the session and the app's details, already asked for by the window's entry
 * before React ran (main.tsx); without it (a test's window) they are read here.
 */
export function App({ firstReads }: { firstReads?: Promise<void> } = {}) {
  const { loaded, session, app } = useSession();
  const topbar = useTopbarHeight();
  const engineUp = useEngineLink((s) => s.up);
  const view = useNav((s) => s.view);
  const go = useNav((s) => s.go);
  const online = useOnline();
  const wide = useWide();
  const capturing = useRecorder((s) => isCapturing(s.status));
  const newNotes = useNoteReady((s) => s.unseen.length);
  const signInAsked = useSignInAsked((s) => s.asked);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    (firstReads ?? useSession.getState().load()).catch((e: unknown) => setLoadError((e as Error).message));
  }, [firstReads]);

  // The next person at the exam-room PC starts on the recorder, not on the last vet's note
  // (the agents' answers are cleared by their own store).
  const signedIn = session.signedIn;
  useEffect(() => {
    if (!signedIn && !capturing) go({ name: 'record' });
  }, [signedIn, capturing, go]);
  // Sign in asked for during a recording with no one signed in is answered once a vet signs in,
  // or no longer needed once the recording ends (the sign-in screen then stays by itself).
  useEffect(() => {
    if (signedIn || !capturing) useSignInAsked.setState({ asked: false });
  }, [signedIn, capturing]);

  // A view opens at its top: after sign-in (the sign-in screen may have been scrolled to its
  // button) and on every change of view, from the sidebar, a toast or a link. Keyed on the view
  // itself, not on renders, so the same view re-rendering (Stop on Record) keeps its place.
  const viewKey = `${signedIn ? 'in' : 'out'}:${view.name}:${view.name === 'note' ? view.id : ''}`;
  useLayoutEffect(() => {
    // Plain scrollTop, which every engine (and the tests' jsdom) sets without complaint.
    for (const el of [document.scrollingElement, document.getElementById('main')]) if (el) el.scrollTop = 0;
  }, [viewKey]);

  // Signed in, the window obeys the tray and the shortcut whichever view it shows (a window
  // opened by a click on "Note ready" opens on the note): its recorder listens from now on, and
  // obeys at once what main held for it.
  useEffect(() => {
    if (signedIn) initRecorder();
  }, [signedIn]);

  useEffect(() => {
    if (!session.signedIn) return;
    useConsults
      .getState()
      .load()
      .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not load the consults'));
    useSettings
      .getState()
      .load()
      .catch((e: unknown) => useNotifications.getState().fail(e, 'Could not load the settings'));
  }, [session.signedIn]);

  // The clinic's consults from the service are read at sign-in (and at launch with a kept one).
  const userId = session.signedIn ? (session.user?.id ?? null) : null;
  useEffect(() => readAtSignIn(userId), [userId]);

  // The Consults list laid out ahead, in idle time, so that opening it finds the work done (its
  // consults are read only once signed in, so its code is not wanted before).
  useEffect(() => (signedIn ? layOutAheadSoon() : undefined), [signedIn]);

  // Once the first view is up, the other views' code comes in idle time.
  useEffect(() => (loaded ? loadViewsWhenIdle() : undefined), [loaded]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Not for a key press a field has taken (the shortcut field in Settings records it).
      if (e.defaultPrevented) return;
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        go({ name: 'ddx' });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  if (loadError) {
    return (
      <main className="center-screen" role="alert">
        <h1>Vet Scribe cannot start</h1>
        <p>{loadError}</p>
        <button type="button" onClick={() => window.location.reload()}>
          Try again
        </button>
      </main>
    );
  }
  if (!loaded) {
    return (
      <main className="center-screen" aria-busy="true">
        <p>Starting Vet Scribe…</p>
      </main>
    );
  }
  // A consult being recorded when the session ends goes on (recording needs no session):
  // the window stays where it is and says so, and the sign-in screen comes after Stop, or
  // before it when asked for (the header's Sign in), with the way back to the recording.
  if (!session.signedIn && (!capturing || signInAsked)) {
    return (
      <>
        {!engineUp && <EngineLost />}
        {capturing && <RecordingGoesOn onBack={() => go({ name: 'record' })} />}
        <SignIn />
        <Toasts />
      </>
    );
  }

  return (
    <div className="shell">
      <header className="topbar" ref={topbar}>
        <span className="brand">Vet Scribe</span>
        {app?.sandbox && <span className="badge badge-warning">Sandbox service — not for real patients</span>}
        {/* The built-in sandbox runs on this computer: no network is needed to reach it. */}
        {!online && !app?.sandbox && (
          <span className="badge badge-error" role="status">
            Offline — consults are kept and sent later
          </span>
        )}
        <span className="spacer" />
        {capturing && view.name !== 'record' && <RecordingPill onOpen={() => go({ name: 'record' })} />}
        {/* With no one signed in (a recording kept going), whose it is, and only Sign in. */}
        {session.signedIn ? (
          <>
            <span className="user">{session.user?.name ?? session.user?.email}</span>
            <SwitchUserButton />
            <SignOutButton />
          </>
        ) : (
          <SignedOutHeader />
        )}
      </header>
      <nav className="sidebar" aria-label="Main">
        <ul>
          {NAV.map((item) => (
            <li key={item.name}>
              <button
                type="button"
                className="nav-item"
                aria-current={
                  view.name === item.name || (item.name === 'consults' && view.name === 'note') ? 'page' : undefined
                }
                onClick={() => go({ name: item.name } as View)}
              >
                {item.label}
                {item.name === 'consults' && newNotes > 0 && (
                  <span className="nav-count" aria-label={`${newNotes} new ${newNotes === 1 ? 'note' : 'notes'}`}>
                    {newNotes}
                  </span>
                )}
                {item.hint && <kbd>{item.hint}</kbd>}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <main className="content" id="main">
        {!engineUp && <EngineLost />}
        {!session.signedIn && <SignedOutWhileRecording />}
        <MainNotices notices={app?.notices ?? []} />
        <UpdateBanner />
        <Views view={view} wide={wide} owner={userId} />
      </main>
      <Toasts />
    </div>
  );
}

/**
 * No one is signed in while a recording goes on: after Switch user's "Keep recording", what the
 * vet chose, in their name (their sign-in waits in main to send it); else the sign-in ended
 * under the recording, which is sent once its vet signs in again.
 */
export function SignedOutWhileRecording() {
  const switched = useSession((s) => s.session.switched === true);
  const owner = useRecorder((s) => s.owner);
  return (
    <p className="notice notice-warning" role="alert">
      {switched
        ? `${owner?.name ?? 'The vet'} switched user. The recording goes on and is kept as theirs: stop it when the consult ends, and it is sent with their own sign-in. The next vet can sign in now or after Stop.`
        : 'Your session has ended. The recording goes on and is kept; sign in again, now or after you stop it, and it will be sent.'}
    </p>
  );
}

function EngineLost() {
  return (
    <p className="notice notice-error" role="alert">
      The app engine is not answering. Recordings on this computer are kept; this window reconnects by itself when the
      engine is back.
    </p>
  );
}
