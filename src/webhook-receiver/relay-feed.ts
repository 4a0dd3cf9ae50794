// The relay's events: each accepted `scribe` delivery, kept as its ids and status (never the
// note) under an increasing id, in the same store as what the receiver handled and for as long.
// The store gives the ids; a feed tells this process's subscribers of each new event, in id
// order and once, whichever process of those sharing the store accepted the delivery.

/** One relay event as subscribers receive it. */
export interface RelayEvent {
  id: number;
  public_id: string;
  recording_session_public_id: string | null;
  status: string;
  /** When the relay accepted the delivery (ISO 8601). */
  at: string;
}

export type RelayEventInput = Omit<RelayEvent, 'id'>;

export interface RelayFeed {
  /** Events with an id above `id`, oldest first, at most `limit`. */
  after(id: number, limit: number): Promise<RelayEvent[]>;
  /** The newest event's id (0 when none is kept). */
  lastId(): Promise<number>;
  /** Calls listener with each event this process learns of from now on, in id order, once. */
  listen(listener: (event: RelayEvent) => void): () => void;
}

/** The relay event a delivery becomes, or null when it is not a `scribe` event with an id and a status. */
export function relayEventOf(payload: unknown, at: string): RelayEventInput | null {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return null;
  const p = payload as Record<string, unknown>;
  if (p['event_type'] !== 'scribe') return null;
  const publicId = p['public_id'];
  const status = p['status'];
  const session = p['recording_session_public_id'];
  if (typeof publicId !== 'string' || publicId === '' || typeof status !== 'string' || status === '') return null;
  return {
    public_id: publicId,
    recording_session_public_id: typeof session === 'string' && session !== '' ? session : null,
    status,
    at,
  };
}

/** The listeners of one process, called in turn; a listener that throws does not stop the others. */
export class Listeners {
  private readonly all = new Set<(event: RelayEvent) => void>();

  add(listener: (event: RelayEvent) => void): () => void {
    this.all.add(listener);
    return () => void this.all.delete(listener);
  }

  emit(event: RelayEvent): void {
    for (const listener of this.all) {
      try {
        listener(event);
      } catch {
        // One subscriber's failure (a socket gone) is that subscriber's; the others still get it.
      }
    }
  }
}
