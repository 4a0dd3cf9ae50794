// How long the audio of a finished consult stays on this computer. The note itself stays; only
// the recording is deleted. Saved as soon as it is chosen.
import { useId, useState } from 'react';
import { useSettings } from '../../stores/settings.ts';

type Days = number | null;

const OPTIONS: { days: Days; label: string }[] = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days (default)' },
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: null, label: 'Forever' },
  { days: 0, label: 'Delete right after the note is ready' },
];

const valueOf = (days: Days) => (days === null ? 'forever' : String(days));
const daysOf = (value: string): Days => (value === 'forever' ? null : Number(value));

function savedLine(days: Days): string {
  if (days === null) return 'Saved. Recordings are kept until you delete them.';
  if (days === 0) return 'Saved. A recording is deleted as soon as its note is ready.';
  return `Saved. Recordings are kept ${days === 1 ? '1 day' : `${days} days`} after the note is ready.`;
}

export function RetentionSection({ retentionDays }: { retentionDays: Days }) {
  const update = useSettings((s) => s.update);
  const [pending, setPending] = useState<Days | undefined>(undefined);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  const current = pending === undefined ? retentionDays : pending;
  // A value set outside this list (by hand in the settings file) is still shown as it is.
  const options = OPTIONS.some((o) => o.days === retentionDays) ? OPTIONS : [...OPTIONS, { days: retentionDays, label: `${String(retentionDays)} days (current)` }];

  async function choose(value: string) {
    if (pending !== undefined) return;
    const days = daysOf(value);
    setPending(days);
    setSaved(null);
    setError(null);
    try {
      const after = await update({ retentionDays: days });
      setSaved(savedLine(after.retentionDays));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(undefined);
    }
  }

  return (
    <section className="panel settings-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Audio retention</h2>
      <label htmlFor={`${ids}-select`}>Keep recordings after the note is ready</label>
      <select
        id={`${ids}-select`}
        className="settings-select"
        value={valueOf(current)}
        aria-disabled={pending !== undefined}
        aria-busy={pending !== undefined}
        aria-describedby={`${ids}-hint`}
        onChange={(e) => void choose(e.target.value)}
      >
        {options.map((o) => (
          <option key={valueOf(o.days)} value={valueOf(o.days)}>
            {o.label}
          </option>
        ))}
      </select>
      <p id={`${ids}-hint`} className="field-hint">
        Only the audio is deleted; the note stays. A shorter period also applies to consults already finished.
      </p>
      {error && (
        <p className="notice notice-error" role="alert">
          The retention was not changed. {error}
        </p>
      )}
      <p className="settings-ok" role="status">
        {pending !== undefined ? 'Saving…' : saved}
      </p>
    </section>
  );
}
