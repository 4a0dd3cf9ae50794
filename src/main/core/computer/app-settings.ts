// The settings as a clinic sees them, and their change: the retention shown and saved is the
// signed-in vet's clinic's own; a new shortcut is registered before it is saved; a change of
// service starts or stops the built-in sandbox, signs out and makes the consults ready for it.
import type { Notice } from '../../../shared/ipc.ts';
import { shortcutProblem } from '../../../shared/desktop.ts';
import { settingsPatchSchema, type Settings } from '../../../shared/settings.ts';
import type { AccountRetention } from '../consults/index.ts';
import type { EmbeddedServiceHost } from './embedded-service.ts';
import type { Pipeline } from '../jobs/index.ts';
import type { Logger, ShortcutPort, UpdatePort } from '../platform/index.ts';
import type { BackgroundSessions, Session } from '../sign-in/index.ts';
import { type SettingsStore } from '../settings/index.ts';
import { Refusal } from '../platform/index.ts';

export type SettingsInput = Parameters<SettingsStore['update']>[0];

export interface AppSettingsOptions {
  settings: SettingsStore;
  retention: AccountRetention;
  embedded: EmbeddedServiceHost;
  session: Session;
  /** Background sign-ins belong to the service they were made with: a change of service ends them. */
  background?: BackgroundSessions;
  pipeline: Pipeline;
  shortcut: ShortcutPort | undefined;
  updates: UpdatePort | undefined;
  notice: (n: Notice) => void;
  log: Logger;
  /** The service accounts belong to now. */
  serviceKey: () => string;
  /** The clinic relay's address changed: its subscription is made again to the new one. */
  relayChanged?: () => void;
  /** Null when something answers at an address, otherwise why not in plain words (service/reach.ts). */
  unreachable?: (url: string) => Promise<string | null>;
}

export class AppSettings {
  private readonly options: AppSettingsOptions;

  constructor(options: AppSettingsOptions) {
    this.options = options;
  }

  /**
   * The settings as the window sees them: the retention is the signed-in vet's clinic's, the
   * last template the signed-in vet's own (none signed out: nobody's choice is offered).
   */
  view(): Settings {
    const { settings, retention } = this.options;
    const s = settings.get();
    const vet = this.vetAccount();
    const lastTemplateId = vet === null ? null : (s.lastTemplateByVet[vet] ?? null);
    return {
      ...s,
      ...retention.of(retention.signedInAccount()),
      retentionByAccount: {},
      lastTemplateByVet: {},
      lastTemplateId,
    };
  }

  /** Keeps the template just sent as the signed-in vet's, to offer first for their next patient. */
  async rememberTemplate(templateId: string | null): Promise<void> {
    const vet = this.vetAccount();
    if (vet !== null) await this.options.settings.setVetTemplate(vet, templateId);
  }

  private vetAccount(): string | null {
    const user = this.options.session.state().user;
    return user ? `${this.options.serviceKey()} ${user.id}` : null;
  }

  /**
   * Settings change; a change of service signs out (the tokens belong to the other one). The
   * retention is the signed-in vet's clinic's own. What a change of service could not do for a
   * consult is said in a notice; the settings themselves were saved.
   */
  async update(input: SettingsInput): Promise<Settings> {
    const { settings, retention, embedded, session, shortcut: shortcutPort } = this.options;
    const { retentionDays, retentionAppliesFrom, lastTemplateId, ...patch } = input;
    const retentionChange = retentionDays !== undefined || retentionAppliesFrom !== undefined;
    const account = retention.signedInAccount();
    if (retentionChange && account === null)
      throw new Refusal(
        'invalid_input',
        "retentionDays: sign in first: each clinic's account keeps its own recordings for as long as it chooses.",
      );
    if (retentionChange) {
      const checked = settingsPatchSchema.safeParse({ retentionDays, retentionAppliesFrom });
      if (!checked.success)
        throw new Refusal(
          'invalid_input',
          checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        );
    }
    const before = settings.get();
    // A new shortcut is registered before it is saved: one another app holds is refused, and
    // the old one stays in force and in the settings.
    const shortcut = typeof patch.recordShortcut === 'string' ? patch.recordShortcut.trim() : null;
    const newShortcut =
      shortcut !== null && shortcut !== before.recordShortcut && shortcutPort && shortcutProblem(shortcut) === null;
    if (newShortcut) {
      const refused = shortcutPort?.apply(shortcut) ?? null;
      if (refused) throw new Refusal('invalid_input', `recordShortcut: ${refused}`);
    }
    let after: Settings;
    try {
      after = await settings.update(patch);
    } catch (e) {
      if (newShortcut) shortcutPort?.apply(before.recordShortcut);
      throw e;
    }
    const serviceChanged = serviceInUseChanged(before, after);
    if (after.useSandbox && !embedded.running) await embedded.start();
    if (!after.useSandbox && embedded.running) await embedded.stop();
    if (serviceChanged && session.state().signedIn) await session.signOut('user');
    if (serviceChanged) await this.options.background?.endAll();
    if (serviceChanged) await this.restartForNewService();
    // The last template is the signed-in vet's own; signed out, there is no one to keep it for.
    const vet = this.vetAccount();
    if (lastTemplateId !== undefined && vet !== null) await settings.setVetTemplate(vet, lastTemplateId);
    if (retentionChange && account !== null) await retention.set(account, { retentionDays, retentionAppliesFrom });
    if (before.updateFeedUrl !== after.updateFeedUrl) this.options.updates?.configure(after.updateFeedUrl);
    if (before.relayUrl !== after.relayUrl) this.options.relayChanged?.();
    return this.view();
  }

  /**
   * Tries a service's addresses before the window saves them: a change of service signs the vet
   * out, so an address where nothing answers is refused now, each named by its settings path,
   * rather than found at the next sign-in. An address given for two fields is tried once.
   */
  async tryService(urls: Settings['serviceUrls']): Promise<null> {
    const tryOne = this.options.unreachable;
    if (!tryOne) return null;
    const keys = Object.keys(urls) as (keyof Settings['serviceUrls'])[];
    const addresses = [...new Set(keys.map((key) => urls[key].trim()).filter((url) => url !== ''))];
    const answers = new Map(await Promise.all(addresses.map(async (url) => [url, await tryOne(url)] as const)));
    const problems = keys.flatMap((key) => {
      const why = answers.get(urls[key].trim());
      return why ? [`serviceUrls.${key}: could not be reached. ${why}`] : [];
    });
    if (problems.length > 0) throw new Refusal('invalid_input', problems.join('; '));
    return null;
  }

  private async restartForNewService(): Promise<void> {
    const { restarted, failed } = await this.options.pipeline.restartForNewService();
    if (restarted > 0)
      this.options.log.info(`settings: another service; ${restarted} consult(s) without a note start again there`);
    if (failed.length > 0) {
      this.options.notice({
        level: 'error',
        message: `The new service is in use and you are signed out. ${failed.length === 1 ? 'One consult' : `${failed.length} consults`} could not be made ready for it (the disk could not be written); ${failed.length === 1 ? 'it is' : 'they are'} kept on this computer and will be tried again at the next start.`,
      });
    }
  }
}

/**
 * Whether the service the app talks to is another one: the built-in sandbox chosen or left, or,
 * while the published service or a clinic's own addresses are in use, one of those addresses
 * changed. Addresses kept for later while the sandbox is in use change nothing now: the vet
 * stays signed in and nothing in flight starts again.
 */
export function serviceInUseChanged(
  before: Pick<Settings, 'useSandbox' | 'serviceUrls'>,
  after: Pick<Settings, 'useSandbox' | 'serviceUrls'>,
): boolean {
  if (before.useSandbox !== after.useSandbox) return true;
  if (after.useSandbox) return false;
  return JSON.stringify(before.serviceUrls) !== JSON.stringify(after.serviceUrls);
}
