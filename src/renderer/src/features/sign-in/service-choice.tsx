// Settings are reachable only when signed in, so a wrong service address would lock the vet
// out: the sign-in screen names the service in use and offers the way back to the sandbox.
import { useEffect, useState } from 'react';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';

export function ServiceChoice({ disabled }: { disabled: boolean }) {
  const settings = useSettings((s) => s.settings);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!useSettings.getState().settings) useSettings.getState().load().catch(() => {});
  }, []);

  async function switchToSandbox() {
    setBusy(true);
    setError(null);
    try {
      await useSettings.getState().update({ useSandbox: true });
      await useSession.getState().load();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const address = settings?.serviceUrls.agentsUrl;
  return (
    <div className="sign-in-service">
      <p className="field-hint">{address ? `Signing in at ${address}.` : "Signing in at your clinic's service."}</p>
      <button type="button" className="link" onClick={() => void switchToSandbox()} disabled={busy || disabled}>
        {busy ? 'Starting the sandbox…' : 'Use the built-in sandbox instead'}
      </button>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
