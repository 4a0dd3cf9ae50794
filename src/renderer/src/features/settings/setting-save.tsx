// Saving one setting the moment it is chosen: what is being saved, the sentence once it is
// saved, and main's refusal (the setting on disk stays as it was). One hook and one feedback
// line for the sections that save a single choice.
import { useState, type ReactNode } from 'react';
import type { Settings, SettingsPatch } from '../../../../shared/settings.ts';
import { useSettings } from '../../stores/settings.ts';

export function useSettingSave<T>() {
  const update = useSettings((s) => s.update);
  const [pending, setPending] = useState<T | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** Saves `patch` for the choice `value`; `said` words the saved settings. One save at a time. */
  async function save(value: T, patch: SettingsPatch, said: (after: Settings) => string): Promise<void> {
    if (pending !== null) return;
    setPending(value);
    setSaved(null);
    setError(null);
    try {
      setSaved(said(await update(patch)));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(null);
    }
  }
  return { pending, saved, error, save };
}

/**
 * The refusal (what was not changed, and why) and the saved sentence, announced. Without `saved`
 * only the refusal is shown (a section whose own status line says where it stands); `id` lets
 * the fields main refused point to the refusal.
 */
export function SettingFeedback({
  error,
  notChanged,
  saved,
  id,
}: {
  error: ReactNode;
  notChanged: string;
  saved?: ReactNode;
  id?: string;
}) {
  return (
    <>
      {error && (
        <p id={id} className="notice notice-error" role="alert">
          {notChanged} {error}
        </p>
      )}
      {saved !== undefined && (
        <p className="settings-ok" role="status">
          {saved}
        </p>
      )}
    </>
  );
}
