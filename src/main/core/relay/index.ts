// The clinic relay: the service's deliveries passed on by the clinic's receiver to this
// computer, so a written note is fetched at once and a note of another room is put under its
// patient. The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { Relay, type RelayEvents, type RelayOptions } from './relay.ts';
export type { RelayEvent, RelayLink } from './messages.ts';
export { relayCalls } from './calls.ts';
export { connectRelay, type HeardLink } from './connect.ts';
