// A section's call to main, and saving one setting the moment it is chosen: what is being
// sent, the sentence once it is saved, and main's refusal (the setting on disk, or the
// service's record, stays as it was). The hooks and the feedback line every section of
// Settings shares.
import { useState, type ReactNode } from 'react';
import type { Settings, SettingsPatch } from '../../../../shared/settings.ts';
import { useSettings } from '../../stores/settings.ts';

/**
 * One call to main: `pending` is the value being sent (undefined while none is), `error` main's
 * refusal in words, through `refusal` where the section says it better.
 */
export function useMainCall<T = true>() {
  const [pending, setPending] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);

  async function run(value: T, call: () => Promise<void>, refusal = (message: string) => message): Promise<void> {
    setPending(value);
    setError(null);
    try {
      await call();
    } catch (err) {
      setError(refusal((err as Error).message));
    } finally {
      setPending(undefined);
    }
  }
  return { pending, error, setError, run };
}

export function useSettingSave<T>() {
  const update = useSettings((s) => s.update);
  const { pending, error, run } = useMainCall<T>();
  const [saved, setSaved] = useState<string | null>(null);

  /** Saves `patch` for the choice `value`; `said` words the saved settings. One save at a time. */
  async function save(value: T, patch: SettingsPatch, said: (after: Settings) => string): Promise<void> {
    if (pending !== undefined) return;
    setSaved(null);
    await run(value, async () => setSaved(said(await update(patch))));
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
