// "Update ready: restart when free": shown once an update from the clinic's feed has been
// downloaded and checked. The restart waits while a consult is recorded or sent (main refuses
// it then, and says why); quitting the app installs it too.
import { useState } from 'react';
import { updateBanner } from '../../../../shared/updates.ts';
import { useUpdateInfo } from '../../hooks/use-update-info.ts';
import { api } from '../../api.ts';
import { consultsIndex, useConsults } from '../../stores/consults.ts';
import { isCapturing, useRecorder } from '../../stores/recorder.ts';

export function UpdateBanner() {
  const info = useUpdateInfo();
  const recording = useRecorder((s) => isCapturing(s.status));
  const uploading = useConsults((s) => consultsIndex(s.byId).sending > 0);
  const [error, setError] = useState<string | null>(null);
  const [restarting, setRestarting] = useState(false);
  const banner = info ? updateBanner(info, { recording, uploading }) : null;
  if (!banner) return null;

  async function restart() {
    setError(null);
    setRestarting(true);
    try {
      await api.update.restart();
    } catch (e) {
      setError((e as Error).message);
      setRestarting(false);
    }
  }

  return (
    <div className="notice notice-info notice-dismissable" role="status">
      <p>{banner.text}</p>
      <button type="button" disabled={!banner.canRestart || restarting} onClick={() => void restart()}>
        {restarting ? 'Restarting…' : 'Restart now'}
      </button>
      {error && (
        <p className="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
