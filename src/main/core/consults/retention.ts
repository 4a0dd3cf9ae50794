// How long this computer keeps the audio of each organization's consults: every organization
// at a service keeps its own retention (`retentionByAccount`), and a consult's is its owner's
// organization's. The sweep runs hourly and when an organization's retention changes.
import type { Retention } from '../../../shared/settings.ts';
import type { RetentionPolicy } from '../jobs/index.ts';
import type { ConsultParts } from './parts.ts';

const SWEEP_MS = 3600_000;

export type AccountRetentionOptions = Pick<
  ConsultParts,
  'settings' | 'recordings' | 'pipeline' | 'user' | 'serviceKey' | 'log'
>;

export class AccountRetention {
  private readonly options: AccountRetentionOptions;
  private timer: NodeJS.Timeout | null = null;

  constructor(options: AccountRetentionOptions) {
    this.options = options;
  }

  /** The organization an owner belongs to, as retention keys it: its service and organization. */
  accountOf(owner: { organizationId: string } | null, service = this.options.serviceKey()): string | null {
    return owner ? `${service} ${owner.organizationId}` : null;
  }

  /** The organization of the vet signed in; null while signed out. */
  signedInAccount(): string | null {
    return this.accountOf(this.options.user());
  }

  /** An organization's retention: its own choice, else the app's default. */
  of(account: string | null): Retention {
    const s = this.options.settings.get();
    return (
      (account !== null ? s.retentionByAccount[account] : undefined) ?? {
        retentionDays: s.retentionDays,
        retentionAppliesFrom: s.retentionAppliesFrom,
      }
    );
  }

  /** Saves an organization's own retention, and sweeps at once if it changed. */
  async set(account: string, change: Partial<Retention>): Promise<void> {
    const was = this.of(account);
    const next = {
      retentionDays: change.retentionDays !== undefined ? change.retentionDays : was.retentionDays,
      retentionAppliesFrom:
        change.retentionAppliesFrom !== undefined ? change.retentionAppliesFrom : was.retentionAppliesFrom,
    };
    await this.options.settings.setAccountRetention(account, next);
    if (next.retentionDays !== was.retentionDays || next.retentionAppliesFrom !== was.retentionAppliesFrom)
      await this.sweep();
  }

  /** How many recordings' audio a retention of `days` would delete now (before the vet confirms). */
  preview(days: number | null): { wouldDelete: number } {
    // The signed-in vet's organization's consults only: another organization's audio is not theirs to count.
    const account = this.signedInAccount();
    if (account === null) return { wouldDelete: 0 };
    const own = this.policy(account);
    return {
      wouldDelete: this.options.pipeline.retentionPreview((id) =>
        own(id) === null ? null : { keepDays: days, countFrom: null },
      ),
    };
  }

  /** Deletes the audio past each organization's retention (hourly, and when one changes it). */
  async sweep(): Promise<void> {
    try {
      const deleted = await this.options.pipeline.applyRetention(this.policy());
      if (deleted.length > 0)
        this.options.log.info(`retention: deleted the audio of ${deleted.length} finished consult(s)`);
    } catch (e) {
      this.options.log.warn(`retention: ${(e as Error).message}`);
    }
  }

  /** Sweeps now, then hourly until stop(). */
  async start(): Promise<void> {
    await this.sweep();
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Each consult's retention is its owner's organization's. A consult no one owns keeps its audio: it
   * has no note yet, and no organization has said how long its audio may be kept.
   */
  private policy(onlyAccount?: string | null): RetentionPolicy {
    return (id) => {
      const owner = this.options.recordings.peek(id)?.owner ?? null;
      const account = owner ? this.accountOf(owner, owner.service) : null;
      if (account === null || (onlyAccount !== undefined && account !== onlyAccount)) return null;
      const r = this.of(account);
      return {
        keepDays: r.retentionDays,
        countFrom: r.retentionAppliesFrom === null ? null : Date.parse(r.retentionAppliesFrom),
      };
    };
  }
}
