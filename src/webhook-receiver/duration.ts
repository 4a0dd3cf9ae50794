// Durations on the command line are written as people say them ("7d", "36h", "90m"), not as
// milliseconds nobody can check at a glance.
const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Milliseconds from "<number><s|m|h|d>", or null when the text is not one. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/i.exec(text);
  if (!match) return null;
  const ms = Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? Number.NaN);
  return Number.isFinite(ms) ? Math.round(ms) : null;
}

/** "7 d", "4 h 21 min": the largest units that divide it, for messages. */
export function formatDuration(ms: number): string {
  const parts: string[] = [];
  let rest = Math.round(ms / 60_000);
  for (const [unit, minutes] of [
    ['d', 1440],
    ['h', 60],
    ['min', 1],
  ] as const) {
    const n = Math.floor(rest / minutes);
    if (n > 0) parts.push(`${n} ${unit}`);
    rest -= n * minutes;
  }
  return parts.join(' ') || `${ms} ms`;
}
