// The published `scribe` payloads carry no event id: the service sends one delivery per status
// of a scribe (requested, scribing, scribed), so (public_id, status) names one delivery. A
// payload that does carry an event_id is known by it instead.

/** The key of a delivery, or null when nothing in it identifies it. */
export function deliveryKey(payload: Record<string, unknown>): string | null {
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);
  const eventId = text(payload['event_id']);
  if (eventId !== null) return `event:${eventId}`;
  const publicId = text(payload['public_id']);
  const status = text(payload['status']);
  return publicId !== null && status !== null ? `scribe:${publicId}:${status}` : null;
}
