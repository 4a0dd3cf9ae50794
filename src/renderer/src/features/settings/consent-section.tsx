// Asking for the pet owner's consent before a consult is recorded: when on, Start asks first, and
// the consult keeps the time the vet confirmed it. Saved as soon as it is changed.
import { useId } from 'react';
import { SettingFeedback, useSettingSave } from './setting-save.tsx';
import { SettingsSection } from './section.tsx';

export function ConsentSection({ askPetOwnerConsent }: { askPetOwnerConsent: boolean }) {
  const { pending, saved, error, save } = useSettingSave<boolean>();
  const ids = useId();
  const change = (on: boolean) =>
    save(on, { askPetOwnerConsent: on }, (after) =>
      after.askPetOwnerConsent
        ? 'Saved. Start asks for the pet owner’s consent first.'
        : 'Saved. Start records at once.',
    );

  return (
    <SettingsSection title="Owner’s consent">
      <label className="settings-check">
        <input
          type="checkbox"
          checked={pending ?? askPetOwnerConsent}
          disabled={pending !== undefined}
          aria-describedby={`${ids}-hint`}
          onChange={(e) => void change(e.target.checked)}
        />
        <span>Ask for the pet owner’s consent before recording</span>
      </label>
      <p id={`${ids}-hint`} className="field-hint">
        Start then asks whether the pet owner agreed, and the consult keeps “Pet owner consented to recording” with the
        time. Without consent nothing is recorded.
      </p>
      <SettingFeedback error={error} notChanged="The setting was not changed." saved={saved} />
    </SettingsSection>
  );
}
