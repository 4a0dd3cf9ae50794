// The app's settings: validated, persisted atomically in <data>/settings.json, with defaults
// that start the embedded sandbox; a member added in a later version takes its default. A file
// that cannot be read is kept aside (never deleted) and the defaults are used, with a notice.
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import {
  settingsPatchSchema,
  settingsSchema,
  DEFAULT_SETTINGS,
  type Retention,
  type Settings,
  type SettingsPatch,
} from '../../../shared/settings.ts';
import { withNamesNow } from '../../../shared/renamed.ts';
import { readJson, writeJsonAtomic, Refusal } from '../platform/index.ts';

/** Members saved under another name by an older version: old name -> name now. */
export const SETTINGS_RENAMED: Readonly<Record<string, keyof Settings>> = {
  useLoginRow: 'signInAtScribe',
  askOwnerConsent: 'askPetOwnerConsent',
};

export class SettingsStore {
  private current: Settings = DEFAULT_SETTINGS;
  private readonly file: string;
  /** Said once to the user when the saved settings could not be used. */
  notice: string | null = null;

  constructor(dataDir: string) {
    this.file = join(dataDir, 'settings.json');
  }

  async load(): Promise<Settings> {
    let raw: unknown;
    try {
      raw = await readJson(this.file);
    } catch {
      raw = undefined;
    }
    if (raw === null) {
      this.current = DEFAULT_SETTINGS;
      return this.current;
    }
    // A member added since the file was written (scribeOverdueMinutes) takes its default; one
    // renamed since is read under its old name; the members the file has are checked as they are.
    const filled =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw)
        ? { ...DEFAULT_SETTINGS, ...(withNamesNow(raw, SETTINGS_RENAMED) as Record<string, unknown>) }
        : raw;
    const parsed = settingsSchema.safeParse(filled);
    if (parsed.success) {
      this.current = parsed.data;
      return this.current;
    }
    const aside = `${this.file}.unreadable-${Date.now()}`;
    await rename(this.file, aside).catch(() => {});
    this.notice = `The saved settings could not be read and were kept aside as ${aside}; defaults are in use.`;
    this.current = DEFAULT_SETTINGS;
    return this.current;
  }

  get(): Settings {
    return this.current;
  }

  async update(patch: SettingsPatch): Promise<Settings> {
    const checkedPatch = settingsPatchSchema.safeParse(patch);
    if (!checkedPatch.success) throw new Refusal('invalid_input', describe(checkedPatch.error.issues));
    const merged = {
      ...this.current,
      ...checkedPatch.data,
      serviceUrls: { ...this.current.serviceUrls, ...checkedPatch.data.serviceUrls },
    };
    const checked = settingsSchema.safeParse(merged);
    if (!checked.success) throw new Refusal('invalid_input', describe(checked.error.issues));
    await writeJsonAtomic(this.file, checked.data);
    this.current = checked.data;
    return this.current;
  }
  /** Keeps (or with null, forgets) a vet's last template (`account`: `<service> <user id>`). */
  async setVetTemplate(account: string, templateId: string | null): Promise<Settings> {
    const byVet = { ...this.current.lastTemplateByVet };
    if (templateId === null) delete byVet[account];
    else byVet[account] = templateId;
    const checked = settingsSchema.safeParse({ ...this.current, lastTemplateByVet: byVet });
    if (!checked.success) throw new Refusal('invalid_input', describe(checked.error.issues));
    await writeJsonAtomic(this.file, checked.data);
    this.current = checked.data;
    return this.current;
  }

  /** Keeps this computer's practice-management system, once a vet signed in to it (pims:signIn). */
  async setPims(pims: Settings['pims']): Promise<Settings> {
    const checked = settingsSchema.safeParse({ ...this.current, pims });
    if (!checked.success) throw new Refusal('invalid_input', describe(checked.error.issues));
    await writeJsonAtomic(this.file, checked.data);
    this.current = checked.data;
    return this.current;
  }

  /** Sets (or with null, forgets) one organization's own retention; the window never writes this map directly. */
  async setAccountRetention(account: string, retention: Retention | null): Promise<Settings> {
    const byAccount = { ...this.current.retentionByAccount };
    if (retention === null) delete byAccount[account];
    else byAccount[account] = retention;
    const checked = settingsSchema.safeParse({ ...this.current, retentionByAccount: byAccount });
    if (!checked.success) throw new Refusal('invalid_input', describe(checked.error.issues));
    await writeJsonAtomic(this.file, checked.data);
    this.current = checked.data;
    return this.current;
  }
}

function describe(issues: { path: PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.map(String).join('.') || 'settings'}: ${i.message}`).join('; ');
}
