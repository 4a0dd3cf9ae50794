// A length of time as every screen shows it: the recorder's stopwatch, the recording pill, the
// consults list, a note's recording. One format, so a consult of 59.6 s reads 0:59 everywhere.

/** m:ss, or h:mm:ss from the hour on; whole seconds, counted down as a stopwatch does. */
export function formatDuration(ms: number): string {
  const total = Number.isFinite(ms) ? Math.max(0, Math.floor(ms / 1000)) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
