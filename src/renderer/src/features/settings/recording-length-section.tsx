// The maximum length of a recording: one left running (the vet called away) stops by itself at
// this length and is kept, with a warning five minutes before. Saved as soon as it is chosen.
import { SettingFeedback, useSettingSave } from './setting-save.tsx';
import { SettingSelect, SettingsSection } from './section.tsx';

const CHOICES = [30, 60, 90, 120, 180, 240];

const label = (minutes: number) =>
  `${minutes >= 60 && minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`}${minutes === 90 ? ' (default)' : ''}`;

export function RecordingLengthSection({ maxRecordingMinutes }: { maxRecordingMinutes: number }) {
  const { pending, saved, error, save } = useSettingSave<number>();
  const current = pending ?? maxRecordingMinutes;
  const choices = CHOICES.includes(maxRecordingMinutes)
    ? CHOICES
    : [...CHOICES, maxRecordingMinutes].sort((a, b) => a - b);
  const choose = (minutes: number) =>
    save(
      minutes,
      { maxRecordingMinutes: minutes },
      (after) =>
        `Saved. A recording left running stops by itself after ${label(after.maxRecordingMinutes).replace(' (default)', '')}, and is kept.`,
    );

  return (
    <SettingsSection title="Recording length">
      <SettingSelect
        label="Stop a recording left running after"
        hint='The recorder warns 5 minutes before, and asks "Still recording?" after 3 minutes in which nothing is heard. What is recorded is always kept.'
        value={String(current)}
        options={choices.map((m) => ({ value: String(m), label: label(m) }))}
        saving={pending !== undefined}
        onValue={(chosen) => void choose(Number(chosen))}
      />
      <SettingFeedback error={error} notChanged="The length was not changed." saved={saved} />
    </SettingsSection>
  );
}
