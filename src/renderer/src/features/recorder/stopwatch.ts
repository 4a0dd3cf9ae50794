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
