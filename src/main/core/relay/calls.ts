// The IPC call about the clinic relay (`relay:status`): the computer's, not a vet's, since the
// relay and its address are the computer's setting (its state says nothing of any consult).
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { Relay } from './relay.ts';

export function relayCalls({ relay }: { relay: Relay }): Calls<ChannelsOf<'relay'>> {
  return {
    'relay:status': { answers: 'computer', run: () => relay.status() },
  };
}
