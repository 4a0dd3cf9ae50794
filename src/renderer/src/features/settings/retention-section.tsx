// How long the audio of a finished consult stays on this computer. The note itself stays; only
// the recording is deleted. Saved as soon as it is chosen, unless the choice would delete audio
// already kept: then it says how many recordings and asks first, and the vet may keep them and
// count the new period from today instead.
import { useState } from 'react';
import { api } from '../../api.ts';
import { useSettings } from '../../stores/settings.ts';
import { SettingSelect, SettingsSection } from './section.tsx';
import { SettingFeedback, useMainCall } from './setting-save.tsx';

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
  const { pending, error, setError, run } = useMainCall<Days>();
  const [saved, setSaved] = useState<string | null>(null);
  const [asking, setAsking] = useState<{ days: Days; count: number } | null>(null);

  const current = pending === undefined ? retentionDays : pending;
  // A value set outside this list (by hand in the settings file) is still shown as it is.
  const options = OPTIONS.some((o) => o.days === retentionDays)
    ? OPTIONS
    : [...OPTIONS, { days: retentionDays, label: `${String(retentionDays)} days (current)` }];

  async function save(days: Days, countFromToday: boolean) {
    setAsking(null);
    setSaved(null);
    await run(days, async () => {
      const after = await update({
        retentionDays: days,
        ...(countFromToday ? { retentionAppliesFrom: new Date().toISOString() } : { retentionAppliesFrom: null }),
      });
      setSaved(
        countFromToday
          ? `${savedLine(after.retentionDays)} Recordings already kept count from today.`
          : savedLine(after.retentionDays),
      );
    });
  }

  async function choose(value: string) {
    if (pending !== undefined) return;
    const days = daysOf(value);
    setSaved(null);
    setError(null);
    try {
      const { wouldDelete } = await api.settings.retentionPreview({ retentionDays: days });
      if (wouldDelete > 0) {
        setAsking({ days, count: wouldDelete });
        return;
      }
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    await save(days, false);
  }

  return (
    <SettingsSection title="Audio retention">
      <SettingSelect
        label="Keep recordings after the note is ready"
        hint="Only the audio is deleted; the note stays. A shorter period asks before it deletes the audio of consults already finished."
        value={valueOf(asking ? asking.days : current)}
        options={options.map((o) => ({ value: valueOf(o.days), label: o.label }))}
        aria-disabled={pending !== undefined}
        saving={pending !== undefined}
        onValue={(chosen) => void choose(chosen)}
      />
      {asking && (
        <div className="notice notice-warning" role="alert">
          <p>
            This would delete the audio of {asking.count === 1 ? '1 recording' : `${asking.count} recordings`} kept on
            this computer now. Their notes stay.
          </p>
          <div className="row">
            <button type="button" className="quiet-danger" onClick={() => void save(asking.days, false)}>
              Delete {asking.count === 1 ? 'it' : 'them'} now
            </button>
            {asking.days !== 0 && asking.days !== null && (
              <button type="button" onClick={() => void save(asking.days, true)}>
                Keep {asking.count === 1 ? 'it' : 'them'}; count from today
              </button>
            )}
            <button type="button" onClick={() => setAsking(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      <SettingFeedback
        error={error}
        notChanged="The retention was not changed."
        saved={pending !== undefined ? 'Saving…' : saved}
      />
    </SettingsSection>
  );
}
