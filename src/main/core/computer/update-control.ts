// Updates as the engine allows them: what a restart would cut short, and the restart itself,
// never while a consult is being recorded or sent.
import type { RecorderActivity } from '../../../shared/desktop.ts';
import { SENDING_STATES } from '../../../shared/jobs.ts';
import { restartRefusal, type Busy, type UpdateInfo } from '../../../shared/updates.ts';
import { type Pipeline } from '../jobs/index.ts';
import type { UpdatePort } from '../platform/index.ts';
import { Refusal } from '../platform/index.ts';

export class UpdateControl {
  private readonly port: UpdatePort | undefined;
  private readonly pipeline: Pipeline;
  private readonly activity: () => RecorderActivity;

  constructor(port: UpdatePort | undefined, pipeline: Pipeline, activity: () => RecorderActivity) {
    this.port = port;
    this.pipeline = pipeline;
    this.activity = activity;
  }

  /** What an update's restart would cut short: a recording, or a recording not yet sent. */
  busy(): Busy {
    const uploading = this.pipeline.list().some((j) => SENDING_STATES.has(j.state));
    return { recording: this.activity() !== 'idle', uploading };
  }

  info(): UpdateInfo {
    return (
      this.port?.info() ?? {
        phase: 'off',
        version: null,
        message: 'Updates come with the installed desktop app.',
      }
    );
  }

  /** Restarts into the downloaded update, never while a recording or an upload is under way. */
  restart(): { restarting: true } {
    const refusal = restartRefusal(this.busy());
    if (refusal) throw new Refusal('busy', refusal);
    if (!this.port || this.info().phase !== 'ready') throw new Refusal('bad_state', 'No update is ready to install.');
    this.port.restart();
    return { restarting: true };
  }
}
