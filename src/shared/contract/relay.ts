// The window's call and event about the clinic relay (`relay:*`): main's side is
// src/main/core/relay/calls.ts.
import type { RelayStatus } from '../relay.ts';
import { answer, none, payload } from './fields.ts';

export const relayInvokes = {
  /** The clinic relay: its address and whether this computer hears it (`relay:changed` follows each change). */
  'relay:status': { input: none, output: answer<RelayStatus>() },
} as const;

export const relayEvents = {
  /** The clinic relay was reached, lost, refused, or its address changed. */
  'relay:changed': payload<RelayStatus>(),
} as const;
