// Provet's rate limits: each endpoint has its own budget per API user over a rolling 60 seconds,
// and a page larger than the default counts as proportionally more requests. Over the budget,
// 429 with Retry-After: the seconds until enough of the window has rolled off.

/** The endpoints the double limits, each with the budget it uses unless the sandbox is told one. */
export const DEFAULT_LIMITS = {
  'appointment-list': 300,
  'appointment-detail': 1200,
  'patient-list': 300,
  'patient-detail': 1200,
  'client-list': 300,
  'client-detail': 1200,
  'user-list': 300,
  'user-detail': 1200,
  'department-list': 300,
  'department-detail': 1200,
  'consultation-list': 300,
  'consultation-detail': 1200,
  'consultation-update-status': 120,
  'consultationnote-list': 600,
  'consultationnote-detail': 600,
} as const;
export type LimitedEndpoint = keyof typeof DEFAULT_LIMITS;

const WINDOW_MS = 60_000;

export class RollingLimits {
  private readonly seen = new Map<string, { at: number; cost: number }[]>();
  private readonly perMinute: (endpoint: LimitedEndpoint) => number;

  /** `perMinute` is read at each request, so a test may change the budget while the double runs. */
  constructor(perMinute: (endpoint: LimitedEndpoint) => number) {
    this.perMinute = perMinute;
  }

  /** Counts a request of `cost` for the caller; the seconds to wait when it is over, else null. */
  take(caller: string, endpoint: LimitedEndpoint, cost: number, now = Date.now()): number | null {
    const limit = this.perMinute(endpoint);
    if (limit <= 0) return null;
    const key = `${endpoint} ${caller}`;
    const recent = (this.seen.get(key) ?? []).filter((r) => r.at > now - WINDOW_MS);
    let used = recent.reduce((sum, r) => sum + r.cost, 0);
    if (used + cost > limit) {
      // Wait until the oldest requests have left the window and the cost fits.
      let wait = 0;
      for (const r of recent) {
        used -= r.cost;
        wait = r.at + WINDOW_MS - now;
        if (used + cost <= limit) break;
      }
      this.seen.set(key, recent);
      return Math.max(1, Math.ceil(wait / 1000));
    }
    recent.push({ at: now, cost });
    this.seen.set(key, recent);
    return null;
  }
}
