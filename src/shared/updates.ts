// Updates of the installed app from the clinic's own feed (electron-updater's generic
// provider): the rules shared by main (which checks, downloads and installs) and the window
// (which shows "Update ready: restart when free" and the feed in Settings).

/**
 * Where the app is with its updates. 'failed': the last check, download or install did not work
 * (the message says why and what to do); the app goes on as it is and the next check tries
 * again.
 */
export type UpdatePhase = 'off' | 'idle' | 'checking' | 'downloading' | 'ready' | 'failed';

export interface UpdateInfo {
  phase: UpdatePhase;
  /** The version found or downloaded; null before one is. */
  version: string | null;
  /** A sentence for the vet: why updates are off or failed, or what is waiting. */
  message: string | null;
}

/** Hours between two checks of the feed while the app runs. */
export const UPDATE_CHECK_HOURS = 4;

/**
 * Why an address cannot be the update feed; null when it can ('' = no feed, updates off).
 * https only (http for this computer alone): the feed says which file to install.
 */
export function updateFeedProblem(url: string): string | null {
  if (url === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not an address (it should look like https://updates.clinic.example/vet-scribe/)';
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(parsed.hostname);
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && loopback))
    return 'must be an https:// address (http:// only for this computer)';
  if (parsed.username || parsed.password) return 'must not carry a user name or password';
  return null;
}

/** What is under way that an update's restart would cut short. */
export interface Busy {
  recording: boolean;
  uploading: boolean;
}

/** Why the app may not restart into its update now, in words; null when it may. */
export function restartRefusal(busy: Busy): string | null {
  if (busy.recording)
    return 'A consult is being recorded: the update is installed once the recording has stopped and you restart, or when you quit.';
  if (busy.uploading)
    return 'A recording is being sent to the service: the update waits until it has gone, or until you quit.';
  return null;
}

/** What the window shows for an update: the banner's words, or null for no banner. */
export function updateBanner(info: UpdateInfo, busy: Busy): { text: string; canRestart: boolean } | null {
  if (info.phase !== 'ready') return null;
  const version = info.version ? ` (version ${info.version})` : '';
  const refusal = restartRefusal(busy);
  return {
    text: `Update ready${version}: restart when free.${refusal ? ` ${refusal}` : ''}`,
    canRestart: refusal === null,
  };
}
