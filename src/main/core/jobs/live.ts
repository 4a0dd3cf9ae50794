// A job as this process holds it: its record as last saved, and what is running for it now.
import type { DocumentInfo, JobRecord } from './record.ts';

export interface Live {
  record: JobRecord;
  controller: AbortController | null;
  running: Promise<void> | null;
  bytesSent: number;
  waitingFor: DocumentInfo['waitingFor'];
  waitingReason: string | null;
  nextRetryAt: number | null;
  lastProgressAt: number;
  /** Whether this run has already told that the job is overdue. */
  overdueAnnounced: boolean;
  /** The job file's writes, one after another: the last to finish is the newest record. */
  writes: Promise<void>;
}

export function newLive(record: JobRecord): Live {
  const sent = record.state === 'uploaded' || record.state === 'scribe_requested' || record.state === 'completed';
  return {
    record,
    controller: null,
    running: null,
    bytesSent: sent ? record.bytesTotal : 0,
    waitingFor: null,
    waitingReason: null,
    nextRetryAt: null,
    lastProgressAt: 0,
    overdueAnnounced: false,
    writes: Promise.resolve(),
  };
}

/**
 * Stops what is running for the job and waits until it has stopped, so what comes next (a new
 * record, a delete, a new run) never races the old run's last save.
 */
export async function cancel(live: Live | undefined): Promise<void> {
  const running = live?.running;
  live?.controller?.abort();
  await running?.catch(() => {});
}
