// The relay wired to the engine: its state tells the pipeline whether polling is a safety net,
// a written note (or a failed one) wakes the job waiting for it, the window hears its state, and
// the vet in front changing makes the subscription again with the new vet's sign-in. A scribe
// the relay names the recording session of is told on (`linked`), so the clinic's list can put a
// note of another room under its visit as soon as it is heard, not at the next refresh.
import type { RelayStatus } from '../../../shared/relay.ts';
import { scribeStatusKind } from '../../../shared/service/index.ts';
import type { Pipeline } from '../jobs/index.ts';
import { Relay, type RelayOptions } from './relay.ts';

/** A scribe and its recording session as one event of the relay names them, in its organization. */
export interface HeardLink {
  scribeId: string;
  recordingSessionId: string;
  /** The service's word for where the scribe is (the event's). */
  status: string;
  /** The organization the relay serves, as its `ready` said: the list of that organization only. */
  organizationId: string;
}

export function connectRelay(
  options: RelayOptions & {
    pipeline: Pipeline;
    emit: (status: RelayStatus) => void;
    linked?: (link: HeardLink) => void;
  },
): Relay {
  const { pipeline, emit, linked, ...relayOptions } = options;
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
    const status = relay.status();
    if (event.recording_session_public_id !== null && status.state === 'connected')
      linked?.({
        scribeId: event.public_id,
        recordingSessionId: event.recording_session_public_id,
        status: event.status,
        organizationId: status.organization,
      });
  });
  options.session.on('changed', () => relay.restart());
  return relay;
}
