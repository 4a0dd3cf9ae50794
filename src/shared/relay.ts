// The clinic relay as the window is told of it: whether this computer hears the service's
// deliveries through the clinic's relay, or polls for its notes as it would without one. Plain
// data, no token (the relay is reached with the vet's sign-in, which stays in main).

export type RelayState =
  /** No relay address is set: notes are polled for. */
  | { state: 'off' }
  /** No vet is signed in, so nothing can subscribe: notes are polled for once one is. */
  | { state: 'signed-out' }
  | { state: 'connecting' }
  /** Subscribed: a written note is fetched the moment the relay says so; polling is a slow safety net. */
  | { state: 'connected'; organization: string }
  /** The relay does not answer, went quiet or dropped: the app polls as usual while it tries again. */
  | { state: 'unreachable'; message: string }
  /** The relay answered but refused this sign-in (not signed in at the service, another clinic). */
  | { state: 'refused'; message: string };

export type RelayStatus = RelayState & { address: string };
