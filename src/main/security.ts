// Electron's security checklist as plain functions, so each rule is tested without Electron:
// which links may open in the browser, which addresses are the app's own page, which
// permission requests are granted, and the Content-Security-Policy of the window.

// Longer than any link the app has reason to open; the operating system's URL handlers have
// their own, smaller limits and differ in how they cut.
const MAX_EXTERNAL_URL_LENGTH = 2048;

/** A link's text parsed, or null when it is too long or holds control characters or white space. */
function parsedLink(raw: string): URL | null {
  if (raw.length > MAX_EXTERNAL_URL_LENGTH) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f-\u009f]/.test(raw)) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * The address to hand to the operating system for a link, or null when it may not leave the
 * app: https only, to a plain DNS name (no IP literals, no punycode lookalikes, no trailing-dot
 * tricks, no empty labels), without credentials, control characters or white space. The
 * answer is the parsed form, so what the OS opens is exactly what was checked (the URL parser
 * drops tabs and line breaks that the raw text would carry on).
 */
export function externalUrl(raw: string): string | null {
  const url = parsedLink(raw);
  if (!url) return null;
  if (url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  const host = url.hostname;
  if (!/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/i.test(host)) return null;
  if (/^\d+(\.\d+)*$/.test(host)) return null;
  if (host.split('.').some((label) => label.startsWith('xn--'))) return null;
  return url.href;
}

/**
 * The address of a practice-management system's sign-in page to open in the system browser: an
 * https address as for any link (externalUrl), or plain http on this computer's own loopback
 * (the built-in sandbox's Provet). Null for anything else.
 */
export function signInPageUrl(raw: string): string | null {
  const external = externalUrl(raw);
  if (external) return external;
  const url = parsedLink(raw);
  if (!url) return null;
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost' || url.hostname === '[::1]';
  if (url.protocol !== 'http:' || !loopback || url.username || url.password) return null;
  return url.href;
}

/** Whether a link may be handed to the operating system (see externalUrl). */
export function isSafeExternalUrl(raw: string): boolean {
  return externalUrl(raw) !== null;
}

/** An address as a log line may quote it: one line (a hostile URL may carry line breaks), short. */
export function urlForLog(raw: string): string {
  return JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}…` : raw);
}

/** Whether an address is the app's own page (the built file, or the dev server in development). */
export function isAppUrl(raw: string, appUrl: string): boolean {
  try {
    const url = new URL(raw);
    const app = new URL(appUrl);
    // The host counts too: file://server/... is a network share on Windows.
    if (app.protocol === 'file:')
      return url.protocol === 'file:' && url.host === app.host && url.pathname === app.pathname;
    return url.origin === app.origin;
  } catch {
    return false;
  }
}

/** An IPC call is answered only from a window of ours, from its top frame, showing our page. */
export function isTrustedSender(
  sender: { fromOurWindow: boolean; topFrame: boolean; frameUrl: string },
  appUrl: string,
): boolean {
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

/**
 * The CSP for a page served by electron-vite's dev server (`npm run dev` only, never in a
 * package): Vite's page loads an inline module script (React refresh), injects style tags and
 * talks to its server over a WebSocket, which the strict policy refuses (a blank window). Only
 * the dev server's own origin is added; everything else stays as strict.
 */
export function devContentSecurityPolicy(devServerUrl: string): string {
  const origin = new URL(devServerUrl).origin;
  const ws = origin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' 'unsafe-inline' ${origin}`)
    .replace("style-src 'self'", `style-src 'self' 'unsafe-inline' ${origin}`)
    .replace("connect-src 'self'", `connect-src 'self' ${origin} ${ws}`);
}

/** The policy for the page main loads: the strict one, unless the page is the dev server's. */
export function contentSecurityPolicyFor(pageUrl: string): string {
  return /^https?:/.test(pageUrl) ? devContentSecurityPolicy(pageUrl) : CONTENT_SECURITY_POLICY;
}
