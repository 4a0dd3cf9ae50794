// Who did what to a consult, as main keeps it: the whole history folded under the note, and
// the line that names who last edited the note ("Edited by Dr. Colleague at 10:42").
import { useEffect, useState } from 'react';
import { TRAIL_WORDS, type TrailEntry } from '../../../../shared/trail.ts';
import { api } from '../../api.ts';
import { timeOfDay } from '../../lib/consult-status.ts';
import { useSession } from '../../stores/session.ts';

function useTrail(id: string, refresh: unknown, enabled = true): TrailEntry[] | null {
  const [entries, setEntries] = useState<TrailEntry[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let current = true;
    api.consults
      .trail({ id })
      .then((t) => current && setEntries(t.entries))
      .catch(() => current && setEntries(null));
    return () => {
      current = false;
    };
  }, [id, refresh, enabled]);
  return entries;
}

/** "you", or the name the service gave the vet. */
function useWho(): (e: TrailEntry) => string {
  const me = useSession((s) => s.session.user?.id ?? null);
  return (e) => (e.userId !== '' && e.userId === me ? 'you' : e.name || 'someone signed out');
}

/** "Edited by Dr. Colleague at 10:42": the last edit of the note (or of one document). */
export function EditedBy({ id, documentId, refresh }: { id: string; documentId?: string; refresh: unknown }) {
  const entries = useTrail(id, refresh);
  const who = useWho();
  const last = entries?.findLast((e) => e.action === 'edited' && e.documentId === documentId);
  return (
    <span className="badge">
      {last ? (
        <>
          Edited by {who(last)} at <time dateTime={last.at}>{timeOfDay(last.at)}</time>
        </>
      ) : (
        'Edited'
      )}
    </span>
  );
}

/** The consult's whole trail, folded: read when opened, so it is as main has it now. */
export function ConsultTrail({ id }: { id: string }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(0);
  const entries = useTrail(id, opened, open);
  const who = useWho();
  return (
    <details
      className="consult-trail"
      onToggle={(e) => {
        setOpen(e.currentTarget.open);
        if (e.currentTarget.open) setOpened((n) => n + 1);
      }}
    >
      <summary>History</summary>
      {entries === null ? null : entries.length === 0 ? (
        <p className="muted">Nothing yet.</p>
      ) : (
        <ol>
          {entries.map((e, i) => (
            <li key={`${e.at}-${i}`}>
              {TRAIL_WORDS[e.action]} by {who(e)},{' '}
              <time dateTime={e.at}>
                {new Date(e.at).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}
              </time>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}
