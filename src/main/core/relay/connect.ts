// The relay wired to the engine: its state tells the pipeline whether polling is a safety net,
// a written note (or a failed one) wakes the job waiting for it, the window hears its state, and
// the vet in front changing makes the subscription again with the new vet's sign-in.
import type { RelayStatus } from '../../../shared/relay.ts';
import { scribeStatusKind } from '../../../shared/service/index.ts';
import type { Pipeline } from '../jobs/index.ts';
import { Relay, type RelayOptions } from './relay.ts';

export function connectRelay(
  options: RelayOptions & { pipeline: Pipeline; emit: (status: RelayStatus) => void },
): Relay {
  const { pipeline, emit, ...relayOptions } = options;
  const relay = new Relay(relayOptions);
  relay.on('status', (status) => {
    pipeline.relayLive(status.state === 'connected');
    emit(status);
  });
  relay.on('event', (event) => {
    const kind = scribeStatusKind(event.status);
    const at = Date.parse(event.at);
    if (kind === 'completed' || kind === 'failed')
      pipeline.noteWritten(event.public_id, Number.isFinite(at) ? at : Date.now());
  });
  options.session.on('changed', () => relay.restart());
  return relay;
}
