// Every recording on this computer, newest first, each with where it is on its way to a note.
import { useCallback, useEffect, useState } from 'react';
import { useConsults, sortedConsults } from '../../stores/consults.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { ConsultRow } from './consult-row.tsx';
import { groupByDay } from './days.ts';
import './consults.css';

export function ConsultsView() {
  const loaded = useConsults((s) => s.loaded);
  const byId = useConsults((s) => s.byId);
  const go = useNav((s) => s.go);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(() => {
    useConsults
      .getState()
      .load()
      .then(() => setError(null))
      .catch((e: unknown) => {
        // With a list on screen already, a failed refresh is a message, not a lost view.
        if (useConsults.getState().loaded) useNotifications.getState().fail(e, 'Could not refresh the consults');
        else setError((e as Error).message);
      });
  }, []);

  // Read afresh on every visit: a recording made or stopped since is not always announced.
  useEffect(load, [load]);

  const consults = sortedConsults(byId);

  return (
    <section className="consults-view" aria-labelledby="consults-title">
      <h1 id="consults-title">Consults</h1>
      {error && !loaded ? (
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
      ) : consults.length === 0 ? (
        <div className="panel consults-empty">
          <p>No consults yet — press Record to start one</p>
          <button type="button" className="primary big" onClick={() => go({ name: 'record' })}>
            Go to Record
          </button>
        </div>
      ) : (
        groupByDay(consults).map((group) => (
          <section key={group.key} className="consult-day" aria-labelledby={`day-${group.key}`}>
            <h2 id={`day-${group.key}`}>{group.heading}</h2>
            <ul className="consult-list">
              {group.consults.map((c) => (
                <ConsultRow key={c.recording.id} consult={c} />
              ))}
            </ul>
          </section>
        ))
      )}
    </section>
  );
}
