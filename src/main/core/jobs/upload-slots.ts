// How many uploads run at once (PipelineOptions.maxConcurrentUploads): a morning of consults
// queued together does not open one PUT per recording, each starving the others of bandwidth.
import { ServiceError } from '../service/index.ts';

export class UploadSlots {
  private free: number;
  private readonly queue: (() => void)[] = [];

  constructor(slots: number) {
    this.free = slots;
  }

  /** Runs `fn` once a slot is free; a job cancelled while it waits for one gives up the wait. */
  async run<T>(signal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    while (this.free === 0) {
      await new Promise<void>((resolve) => {
        this.queue.push(resolve);
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      if (signal.aborted) throw new ServiceError('aborted', 'upload', 'The upload was cancelled.');
    }
    this.free -= 1;
    try {
      return await fn();
    } finally {
      this.free += 1;
      this.queue.shift()?.();
    }
  }
}
