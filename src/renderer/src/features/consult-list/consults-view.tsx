// Every recording on this computer, newest first, each with where it is on its way to a note;
// a search (patient, visit, words of the note) and filters by day and state find one. Signed
// out (a recording going on after Switch user keeps the window up), it lists nothing and says
// why: an empty list then would tell the vet there are no consults.
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { api } from '../../api.ts';
import { consultsIndex, useConsults } from '../../stores/consults.ts';
import { useSettings } from '../../stores/settings.ts';
import { useSession } from '../../stores/session.ts';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';
import { useTemplates } from '../../stores/templates.ts';
import { filterConsults, isFiltering, STATE_FILTERS, type StateFilter } from '../../lib/consult-filter.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { ConsultList } from './consult-list.tsx';
import { ClinicList } from '../clinic/index.ts';
import { useClinic } from '../../stores/clinic.ts';
import { MAX_LABEL } from '../../../../shared/limits.ts';
import { SelectField } from '../../components/select-field.tsx';
import { TextField } from '../../components/text-field.tsx';
import './consult-list.css';

export function ConsultsView() {
  // Known to be signed out: before main has said who is signed in, the list is shown as it loads.
  const signedOut = useSession((s) => s.loaded && !s.session.signedIn);
  const loaded = useConsults((s) => s.loaded);
  const byId = useConsults((s) => s.byId);
  const go = useNav((s) => s.go);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    useConsults
      .getState()
      .refresh()
      .then(() => setError(null))
      .catch((e: unknown) => {
        // With a list on screen already, a failed refresh is a message, not a lost view.
        if (useConsults.getState().loaded) useNotifications.getState().fail(e, 'Could not refresh the consults');
        else setError((e as Error).message);
      });
  }, []);

  // Kept by main's events since it was loaded; on every visit main is asked whether any change
  // was missed (a recording made or stopped is not always announced), and only then read again.
  useEffect(load, [load]);
  // The rows name their template.
  useEffect(() => {
    if (useTemplates.getState().status === 'idle') void useTemplates.getState().load();
  }, []);

  const ids = useId();
  const [query, setQuery] = useState('');
  const [matching, setMatching] = useState<ReadonlySet<string> | null>(null);
  const [day, setDay] = useState('');
  const [state, setState] = useState<StateFilter>('all');
  const [searchError, setSearchError] = useState<string | null>(null);
  const overdueMinutes = useSettings((s) => s.settings?.scribeOverdueMinutes);

  // Main searches the notes too; asked a moment after the typing stops, and again when what it
  // searches changes (a note arrives or is edited, a consult comes or goes, a name changes),
  // not at every upload progress event (a job's updatedAt moves only when its record is saved).
  // Worked out only while words are typed, and then only when the consults change: a key typed
  // must not go through them all, nor must opening the view.
  const words = query.trim() !== '';
  const searched = useMemo(() => (words ? searchedKey(byId) : ''), [words, byId]);
  useEffect(() => {
    if (query.trim() === '') return;
    let current = true;
    const timer = setTimeout(() => {
      api.consults
        .search({ query })
        .then(({ ids: found }) => {
          if (!current) return;
          setMatching(new Set(found));
          setSearchError(null);
        })
        .catch((e: unknown) => current && setSearchError((e as Error).message));
    }, 200);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, searched]);

  const index = consultsIndex(byId);
  const all = index.sorted;
  const filter = useMemo(() => ({ matching: words ? matching : null, day, state }), [words, matching, day, state]);
  const filtering = words || isFiltering(filter);
  // The same array while only the typing changes, so the list is not rendered again for a key;
  // with nothing to find, the whole order as the index keeps it, which a consult's progress
  // leaves as it was, so the list is not laid out again at each event.
  const found = useMemo(() => {
    if (!isFiltering(filter)) return null;
    const list = filterConsults(all, filter, overdueMinutes);
    return { ids: list.map((c) => c.recording.id), starts: list.map((c) => c.recording.startedAt) };
  }, [all, filter, overdueMinutes]);
  const shown = found ?? { ids: index.order, starts: index.starts };
  const fromClinic = useClinic((s) => s.view?.consults.length ?? 0);
  const clinicFilter = useMemo(() => ({ words: query, day, state }), [query, day, state]);
  const clear = () => {
    setQuery('');
    setMatching(null);
    setDay('');
    setState('all');
  };

  return (
    <section className="consults-view" aria-labelledby="consults-title">
      <h1 id="consults-title">Consults</h1>
      {signedOut ? (
        <SignedOut />
      ) : error && !loaded ? (
        <div className="notice notice-error" role="alert">
          <p>The consults could not be loaded: {error}</p>
          <button type="button" onClick={load}>
            Try again
          </button>
        </div>
      ) : !loaded ? (
        <p className="muted" role="status" aria-busy="true">
          Loading consults…
        </p>
      ) : (
        <>
          {all.length === 0 && fromClinic > 0 && <p className="muted">No consults recorded on this computer yet.</p>}
          {all.length === 0 && fromClinic === 0 && (
            <div className="panel consults-empty">
              <p>No consults yet — press Record to start one</p>
              <button type="button" className="primary big" onClick={() => go({ name: 'record' })}>
                Go to Record
              </button>
            </div>
          )}
          {(all.length > 0 || fromClinic > 0) && (
            <div className="consults-find" role="search" aria-label="Find a consult">
              <div className="consults-find-words">
                <TextField
                  id={`${ids}-q`}
                  label="Search"
                  type="search"
                  value={query}
                  placeholder="Patient, visit or words in the note"
                  maxLength={MAX_LABEL}
                  onValue={(typed) => {
                    setQuery(typed);
                    if (typed.trim() === '') setMatching(null);
                  }}
                />
              </div>
              <div>
                <TextField id={`${ids}-day`} label="Day" type="date" value={day} onValue={setDay} />
              </div>
              <div>
                <SelectField
                  id={`${ids}-state`}
                  label="State"
                  value={state}
                  options={STATE_FILTERS}
                  onValue={(chosen) => setState(chosen as StateFilter)}
                />
              </div>
            </div>
          )}
          {searchError && (
            <p className="notice notice-error" role="alert">
              The search did not work: {searchError}
            </p>
          )}
          {filtering && all.length > 0 && (
            <p className="muted consults-count" role="status">
              {shown.ids.length === 0 ? 'No consult matches.' : `${shown.ids.length} of ${all.length} consults.`}{' '}
              <button type="button" className="link" onClick={clear}>
                Show all
              </button>
            </p>
          )}
          {all.length > 0 && <ConsultList ids={shown.ids} starts={shown.starts} />}
        </>
      )}
      {!signedOut && loaded && <ClinicList filter={clinicFilter} />}
    </section>
  );
}

/**
 * No one signed in: the consults are the next vet's to see. While a recording goes on the
 * sign-in screen waits for its Stop, so the way to it is the recorder.
 */
function SignedOut() {
  const go = useNav((s) => s.go);
  const capturing = useRecorder((s) => isCapturing(s.status));
  return (
    <div className="panel consults-empty">
      <p>Your consults show here after sign-in.</p>
      {capturing ? (
        <>
          <p className="muted">A recording is going on: once it is stopped on Record, the sign-in screen comes next.</p>
          <button type="button" className="primary big" onClick={() => go({ name: 'record' })}>
            Go to Record
          </button>
        </>
      ) : (
        // With no recording going, the window shows the sign-in screen on any view.
        <button type="button" className="primary big" onClick={() => go({ name: 'record' })}>
          Sign in
        </button>
      )}
    </div>
  );
}

/** The last key worked out, kept while the consults are the same (the view opened again). */
let searchedLast: { byId: Record<string, ConsultInfo>; key: string } | null = null;

/** What the search looks at, as one string that changes when any of it does. */
function searchedKey(byId: Record<string, ConsultInfo>): string {
  if (searchedLast?.byId !== byId)
    searchedLast = {
      byId,
      key: Object.values(byId)
        .map(
          (c) =>
            `${c.recording.id}:${c.recording.patientName ?? ''}:${c.recording.description ?? ''}:${c.recording.label ?? ''}:${c.recording.listName ?? ''}:${c.job?.updatedAt ?? ''}`,
        )
        .join('|'),
    };
  return searchedLast.key;
}
