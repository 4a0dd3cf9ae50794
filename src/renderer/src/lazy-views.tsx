// The views the window does not show first, each in a chunk of its own that is loaded when it is
// first wanted, or in idle time once the first view is up. The sign-in screen and the recorder
// then wait only for their own code: the window's whole script took about a third of the time to
// a usable first view in a profile of a new tab (compiled and run before anything was shown).
import { lazy, type ComponentType } from 'react';
// Their sheets are not loaded with them but here, with the window's first stylesheet, in the order
// they held when these views were part of the first script: a sheet loaded with its chunk would
// come after the window's base sheets (print.css last) and win over them where both set the same
// thing, on screen and on paper (the printed note). Their components import them too, which
// changes nothing: a sheet is placed once, where it is first imported.
// test/architecture/lazy-sheets.test.ts checks that every sheet of these folders is listed.
import './features/clinic/clinic.css';
import './features/chat/consult-chat.css';
import './components/confirm-inline.css';
import './components/template-picker.css';
import './features/answers/consult-answers.css';
import './features/note/pims-bar.css';
import './features/note/documents.css';
import './features/note/pet-tabs.css';
import './features/note/note.css';
import './features/consult-list/consult-list.css';

/** One import, started once: a failed one is tried again by the next caller. */
function loader<M>(load: () => Promise<M>): () => Promise<M> {
  let pending: Promise<M> | null = null;
  return () => {
    pending ??= load().catch((e: unknown) => {
      pending = null;
      throw e;
    });
    return pending;
  };
}

const consultList = loader(() => import('./features/consult-list/index.ts'));
const note = loader(() => import('./features/note/index.ts'));
const clinic = loader(() => import('./features/clinic/index.ts'));

/** What a view says when its code could not be loaded (the engine restarting under the browser host). */
function NotLoaded({ error }: { error: unknown }) {
  return (
    <div className="notice notice-error" role="alert">
      <p>This view could not be opened: {error instanceof Error ? error.message : String(error)}</p>
      <button type="button" onClick={() => window.location.reload()}>
        Reload the window
      </button>
    </div>
  );
}

/**
 * A view loaded on first use. React keeps the answer of a lazy component for good, so a load that
 * failed shows why, with a way out, instead of taking the whole window down with it.
 */
function lazyView<M, P extends object>(load: () => Promise<M>, pick: (m: M) => ComponentType<P>) {
  return lazy<ComponentType<P>>(() =>
    load().then(
      (m) => ({ default: pick(m) }),
      (error: unknown) => ({ default: (() => <NotLoaded error={error} />) as ComponentType<P> }),
    ),
  );
}

export const ConsultsView = lazyView(consultList, (m) => m.ConsultsView);
export const NoteView = lazyView(note, (m) => m.NoteView);
export const ClinicNoteView = lazyView(clinic, (m) => m.ClinicNoteView);

/** The Consults list laid out ahead once its code is here; answers how to stop. */
export function layOutAheadSoon(): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  consultList().then(
    (m) => {
      if (!stopped) stop = m.layOutAhead();
    },
    // The list's own view says so when it is opened; laying out ahead is only a head start.
    () => undefined,
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

/**
 * Every view's code fetched in idle time, after the first view is up, so that a first click on
 * Consults or a note does not wait for it. Answers how to call it off.
 */
export function loadViewsWhenIdle(): () => void {
  const all = () => {
    for (const load of [consultList, note, clinic]) load().catch(() => undefined);
  };
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(all, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(all, 200);
  return () => clearTimeout(timer);
}
