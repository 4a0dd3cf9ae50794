// Asking for the owner's consent before a consult is recorded: when on, Start asks first, and
// the consult keeps the time the vet confirmed it. Saved as soon as it is changed.
import { useId, useState } from 'react';
import { useSettings } from '../../stores/settings.ts';

export function ConsentSection({ askOwnerConsent }: { askOwnerConsent: boolean }) {
  const update = useSettings((s) => s.update);
  const [pending, setPending] = useState<boolean | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  async function change(on: boolean) {
    setPending(on);
    setSaved(null);
    setError(null);
    try {
      const after = await update({ askOwnerConsent: on });
      setSaved(after.askOwnerConsent ? 'Saved. Start asks for the owner’s consent first.' : 'Saved. Start records at once.');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(null);
    }
  }

  return (
    <section className="panel settings-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Owner’s consent</h2>
      <label className="settings-check">
        <input type="checkbox" checked={pending ?? askOwnerConsent} disabled={pending !== null} aria-describedby={`${ids}-hint`} onChange={(e) => void change(e.target.checked)} />
        <span>Ask for the owner’s consent before recording</span>
      </label>
      <p id={`${ids}-hint`} className="field-hint">
        Start then asks whether the owner agreed, and the consult keeps “Owner consented to recording” with the time. Without consent nothing is recorded.
      </p>
      {error && (
        <p className="notice notice-error" role="alert">
          The setting was not changed. {error}
        </p>
      )}
      <p className="settings-ok" role="status">
        {saved}
      </p>
    </section>
  );
}
