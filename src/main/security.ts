// Electron's security checklist as plain functions, so each rule is tested without Electron:
// which links may open in the browser, which addresses are the app's own page, which
// permission requests are granted, and the Content-Security-Policy of the window.

/** Links that may be handed to the operating system: https only, with a real host name. */
export function isSafeExternalUrl(raw: string): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  const host = url.hostname;
  // A host name with letters and dots only: no IP literals, no punycode lookalikes, no
  // trailing-dot tricks, no empty labels.
  if (!/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i.test(host)) return false;
  if (/^\d+(\.\d+)*$/.test(host)) return false;
  if (host.split('.').some((label) => label.startsWith('xn--'))) return false;
  return true;
}

/** Whether an address is the app's own page (the built file, or the dev server in development). */
export function isAppUrl(raw: string, appUrl: string): boolean {
  try {
    const url = new URL(raw);
    const app = new URL(appUrl);
    if (app.protocol === 'file:') return url.protocol === 'file:' && url.pathname === app.pathname;
    return url.origin === app.origin;
  } catch {
    return false;
  }
}

/** An IPC call is answered only from a window of ours, from its top frame, showing our page. */
export function isTrustedSender(sender: { fromOurWindow: boolean; topFrame: boolean; frameUrl: string }, appUrl: string): boolean {
  return sender.fromOurWindow && sender.topFrame && isAppUrl(sender.frameUrl, appUrl);
}

export interface PermissionRequest {
  permission: string;
  requestingUrl: string;
  mediaTypes?: string[];
}

/** Only the microphone, only for the app's own page. Camera, screen, location, etc.: never. */
export function isPermissionAllowed(request: PermissionRequest, appUrl: string): boolean {
  if (!isAppUrl(request.requestingUrl, appUrl)) return false;
  if (request.permission !== 'media') return false;
  const types = request.mediaTypes ?? [];
  return types.length > 0 && types.every((t) => t === 'audio');
}

export const AUDIO_SCHEME = 'vetscribe-audio';

/** The window's Content-Security-Policy: own scripts and styles only, no eval, no remote. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  `media-src 'self' blob: ${AUDIO_SCHEME}:`,
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
