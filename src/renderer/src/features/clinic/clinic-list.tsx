// The clinic's consults from the service, below this computer's: found by the same search and
// filters, each marked as recorded elsewhere and opened read-only. A clinic may list thousands:
// the first rows are shown and more on request.
import { useEffect, useMemo, useState } from 'react';
import type { ClinicConsult } from '../../../../shared/clinic.ts';
import { readIfOld, refreshOncePerSignIn, useClinic } from '../../stores/clinic.ts';
import { useSession } from '../../stores/session.ts';
import { useNav } from '../../stores/nav.ts';
import { useNotifications } from '../../stores/notifications.ts';
import { filterClinic, type ClinicFilter } from '../../lib/consult-filter.ts';
import { dayHeading } from '../../lib/days.ts';
import './clinic.css';

const PAGE = 100;

export const ELSEWHERE = 'From the service, recorded elsewhere';

/** What a consult from elsewhere is called: its patient, else its template's note. */
export function clinicTitle(c: ClinicConsult): string {
  return c.patientName ?? (c.templateName ? `${c.templateName} note` : 'Note');
}

export function ClinicList({ filter }: { filter: ClinicFilter }) {
  const view = useClinic((s) => s.view);
  const refreshing = useClinic((s) => s.refreshing);
  const [shown, setShown] = useState(PAGE);
  const userId = useSession((s) => (s.session.signedIn ? (s.session.user?.id ?? null) : null));

  // The window reads the list at sign-in (readAtSignIn); asked here too, it is not read twice.
  useEffect(() => refreshOncePerSignIn(userId), [userId]);
  // Each time Consults is shown (it stays mounted, its effects run again as it shows): a consult
  // recorded in another room since the last read, over a minute ago, appears without Refresh.
  useEffect(() => readIfOld(), []);

  useEffect(() => {
    if (useClinic.getState().view === null)
      void useClinic
        .getState()
        .load()
        .catch((e: unknown) => useNotifications.getState().fail(e, "Could not open the clinic's consults"));
  }, [view]);

  const found = useMemo(() => filterClinic(view?.consults ?? [], filter), [view, filter]);
  const refresh = () =>
    void useClinic
      .getState()
      .refresh()
      .catch((e: unknown) => useNotifications.getState().fail(e, "Could not refresh the clinic's consults"));

  // Shown empty too, with its Refresh: a consult recorded elsewhere since is one click away.
  if (view === null) return null;
  return (
    <section className="clinic-consults" aria-labelledby="clinic-consults-title">
      <div className="clinic-head">
        <h2 id="clinic-consults-title">The clinic’s other consults</h2>
        <button type="button" disabled={refreshing} onClick={refresh}>
          {refreshing ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {view.error && (
        <p className="notice notice-error" role="alert">
          {view.error}
        </p>
      )}
      <p className="muted">
        {view.refreshedAt === null
          ? 'Not read from the service yet.'
          : `Read from the service ${dayHeading(view.refreshedAt).toLowerCase()} at ${new Date(view.refreshedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}.`}
        {view.truncated && ' Only the newest are shown.'}
      </p>
      {view.consults.length === 0 && view.refreshedAt !== null && (
        <p className="muted">The service lists none recorded elsewhere.</p>
      )}
      {view.consults.length > 0 && found.length === 0 && <p className="muted">None of them matches.</p>}
      <ul className="consult-list clinic-list">
        {found.slice(0, shown).map((c) => (
          <ClinicRow key={c.key} consult={c} />
        ))}
      </ul>
      {found.length > shown && (
        <button type="button" className="link" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, found.length - shown)} more
        </button>
      )}
    </section>
  );
}

const clock = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** "2 notes written at 07:28 could be this visit's", or "between 07:28 and 07:41" when they differ. */
export function candidatesLine(candidates: readonly ClinicConsult[]): string {
  const times = [...new Set(candidates.map((c) => clock(c.updatedAt)))];
  const count = candidates.length === 1 ? '1 note' : `${candidates.length} notes`;
  const when = times.length === 1 ? `at ${times[0]}` : `between ${times[0]} and ${times.at(-1)}`;
  return `${count} written ${when} could be this visit's: the service does not say which.`;
}

function ClinicRow({ consult }: { consult: ClinicConsult }) {
  const go = useNav((s) => s.go);
  const candidates = consult.candidates ?? [];
  return (
    <li className="consult-row clinic-row">
      <article aria-label={clinicTitle(consult)}>
        <div className="consult-head">
          <h3>{clinicTitle(consult)}</h3>
          <p className="consult-meta muted">
            <time dateTime={consult.updatedAt}>
              {dayHeading(consult.updatedAt)}, {clock(consult.updatedAt)}
            </time>
            {consult.patientName && consult.templateName && <span> · {consult.templateName}</span>}
            {consult.description && <span> · {consult.description}</span>}
            {consult.scribeId !== null && !consult.patientName && <span> · patient not named by the service</span>}
          </p>
        </div>
        <p className="clinic-mark">{ELSEWHERE}</p>
        {consult.scribeId !== null ? (
          <button type="button" className="primary" onClick={() => go({ name: 'clinic-note', key: consult.key })}>
            Open note
          </button>
        ) : candidates.length > 0 ? (
          <>
            <p className="muted">{candidatesLine(candidates)}</p>
            {/* Each its own button: two pets seen together give two notes alike but for their words. */}
            <ol className="clinic-candidates">
              {candidates.map((c, i) => (
                <li key={c.key}>
                  <button type="button" onClick={() => go({ name: 'clinic-note', key: c.key })}>
                    {candidates.length === 1 ? 'Open note' : `Open note ${i + 1}`}
                  </button>
                  <span className="muted">
                    {' '}
                    {c.templateName ? `${c.templateName} note` : 'Note'}, written at {clock(c.updatedAt)}
                  </span>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <p className="muted">
            The service does not say which note is this visit's: look for a note of the same time.
          </p>
        )}
      </article>
    </li>
  );
}
