// The request target of an HTTP request line as a URL. An origin-form target is a path, even
// when it starts with `//` or `/\`: `new URL('//', base)` reads that as a host (and throws on
// an empty one), so a request for `//` must not reach the URL parser as a relative reference.
// Null where the target cannot be read at all; the caller answers 400.
export function requestTarget(target: string | undefined, origin: string): URL | null {
  const text = target ?? '/';
  try {
    return text.startsWith('/') ? new URL(`${origin}${text}`) : new URL(text, origin);
  } catch {
    return null;
  }
}

/** A path segment percent-decoded, or null when its encoding is broken (`%E0%A4%A`). */
export function decodeSegment(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
