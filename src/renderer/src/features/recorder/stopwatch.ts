// Elapsed recording time with paused stretches left out, on a monotonic clock.

export function createStopwatch(now: () => number = () => performance.now()) {
  let before = 0;
  let runningSince: number | null = null;
  return {
    start() {
      before = 0;
      runningSince = now();
    },
    pause() {
      if (runningSince === null) return;
      before += now() - runningSince;
      runningSince = null;
    },
    resume() {
      runningSince ??= now();
    },
    elapsedMs(): number {
      return Math.round(before + (runningSince === null ? 0 : now() - runningSince));
    },
  };
}

/** mm:ss; minutes keep counting past 59, as a consult can run long. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}
