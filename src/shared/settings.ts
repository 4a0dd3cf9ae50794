// The settings' shape, shared by main (which validates and keeps them) and the window (which
// shows and edits them).
import { z } from 'zod';
import { DEFAULT_RECORD_SHORTCUT, shortcutProblem } from './desktop.ts';
import { updateFeedProblem } from './updates.ts';
import { MAX_TEMPLATE_ID, MAX_URL } from './limits.ts';

const serviceUrl = z
  .string()
  .trim()
  .max(MAX_URL)
  .refine(
    (v) =>
      v === '' || /^https:\/\/[^\s/]+/i.test(v) || /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?(\/|$)/i.test(v),
    {
      message: 'must be an https:// address (http:// only for localhost)',
    },
  );

export { PUBLISHED_SERVICE_URLS } from './published-service.ts';

/** Minutes a scribe job may stay unfinished before the vet is told and offered "Ask again". */
const overdueMinutes = z
  .number()
  .int()
  .min(1)
  .max(24 * 60);
/** Minutes after which a recording left running stops by itself (kept), with a warning 5 minutes before. */
const maxRecordingMinutes = z
  .number()
  .int()
  .min(10)
  .max(8 * 60);
/** A text setting checked by a rule that says in words what is wrong with it (null when nothing). */
const checkedText = (max: number, problem: (value: string) => string | null) =>
  z
    .string()
    .trim()
    .max(max, 'is too long')
    .superRefine((value, ctx) => {
      const found = problem(value);
      if (found) ctx.addIssue({ code: 'custom', message: found });
    });
/** The most characters of this computer's name, short enough to read in one line on another PC. */
export const MAX_COMPUTER_NAME = 40;
/**
 * This computer's name as the other rooms read it ("Edited on Exam room 1"); '' = none given, and
 * the host name is used. What is wrong with `name` (trimmed) in words, or null.
 */
export function computerNameProblem(name: string): string | null {
  if (name === '') return null;
  // Counted as the vet sees characters (an accent or an emoji is one), not as UTF-16 units.
  if ([...name].length > MAX_COMPUTER_NAME) return `must be at most ${MAX_COMPUTER_NAME} characters`;
  // Control and format characters (line breaks, tabs, invisible marks) would break or hide the
  // line another PC shows.
  if (/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(name))
    return 'must be printable characters only: no line breaks, tabs or invisible characters';
  return null;
}
/** The global shortcut that starts and stops recording, in Electron's accelerator syntax; '' = none. */
const recordShortcut = checkedText(100, shortcutProblem);
/** The clinic's update feed (electron-updater's generic provider); '' = no updates. */
const updateFeedUrl = checkedText(MAX_URL, updateFeedProblem);
/** This computer's name in the edits the clinic relay announces; '' = its host name. */
const computerName = checkedText(400, computerNameProblem);

const retention = z.object({
  retentionDays: z.number().int().min(0).max(3650).nullable(),
  retentionAppliesFrom: z.iso.datetime().nullable(),
});
export type Retention = z.infer<typeof retention>;

const serviceUrls = z.object({ agentsUrl: serviceUrl, scribeUrl: serviceUrl, agentsApiUrl: serviceUrl });
/** The three addresses of a service, each checked as a setting checks it. */
export const serviceUrlsSchema = serviceUrls;

/** Every member's rule, once: the saved file and the window's changes are both read with it. */
const settingsShape = z.object({
  version: z.literal(1),
  /** Start the built-in sandbox and talk to it instead of the service addresses below. */
  useSandbox: z.boolean(),
  serviceUrls,
  /**
   * Sign in with `POST /auth/login` on the scribing API instead of `POST /auth/sign-in` on the
   * sign-in host (docs/service.md). Saved settings files of older versions call it
   * `useLoginRow`; the settings store reads that name too (SETTINGS_RENAMED).
   */
  signInAtScribe: z.boolean(),
  lastTemplateId: z.string().max(MAX_TEMPLATE_ID).nullable(),
  /** Days the audio of a finished note is kept; null = for ever. */
  retentionDays: retention.shape.retentionDays,
  /**
   * When a shorter retention was chosen without deleting the audio already kept: a finished
   * consult's days are counted from this moment, not from its note. Null = from the note.
   */
  retentionAppliesFrom: retention.shape.retentionAppliesFrom,
  /**
   * Each clinic's own retention, by account (`<service> <organization id>`): one clinic's
   * choice never deletes another's audio. The two members above are the default of a clinic
   * that has chosen none; the window sees and edits its own clinic's (main swaps them in).
   */
  retentionByAccount: z
    .record(z.string().max(2400), retention)
    .refine((r) => Object.keys(r).length <= 1000, 'holds too many accounts'),
  inputDeviceId: z.string().max(500).nullable(),
  scribeOverdueMinutes: overdueMinutes,
  maxRecordingMinutes,
  /**
   * Start asks whether the pet's owner consented to the recording, and the consult keeps the
   * answer's time. Saved settings of older versions call it `askOwnerConsent` (SETTINGS_RENAMED).
   */
  askPetOwnerConsent: z.boolean(),
  recordShortcut,
  updateFeedUrl,
  /**
   * Each vet's last template, by account (`<service> <user id>`): the next patient of a vet gets
   * theirs, a colleague signing in next their own. The window sees the signed-in vet's as
   * `lastTemplateId` (main swaps it in) and never writes this map.
   */
  lastTemplateByVet: z
    .record(z.string().max(2400), z.string().max(MAX_TEMPLATE_ID))
    .refine((r) => Object.keys(r).length <= 1000, 'holds too many vets'),
  /**
   * This computer's practice-management system (docs/pims.md): kept only once a vet signed in to
   * it with these (`pims:signIn`), so a wrong address is never half saved; the window never
   * writes it through a settings change.
   */
  pims: z
    .object({ kind: z.literal('provet'), address: z.string().max(MAX_URL), clientId: z.string().max(255) })
    .nullable(),
  /**
   * The clinic relay's address (the clinic's receiver of the service's deliveries, passing them
   * to every exam room); '' = none, and notes are polled for as usual. Like the service's
   * addresses: https, or http on this computer only.
   */
  relayUrl: serviceUrl,
  /**
   * This computer's name, as the other exam rooms read it in an edit announced through the clinic
   * relay ("Edited on Exam room 1 by …"): it names the PC, not a vet. '' = none given: the
   * computer's host name is used.
   */
  computerName,
});

/** settings.json. */
export const settingsSchema = settingsShape.superRefine((s, ctx) => {
  if (s.useSandbox) return;
  for (const key of ['agentsUrl', 'scribeUrl', 'agentsApiUrl'] as const) {
    if (s.serviceUrls[key] === '') {
      ctx.addIssue({ code: 'custom', path: ['serviceUrls', key], message: 'is needed when the sandbox is off' });
    }
  }
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * What the window may change (`settings:set`): any of the members but the file's version and
 * the retention by account (main keeps that one), each service address on its own.
 */
export const settingsPatchSchema = settingsShape
  .omit({ version: true, retentionByAccount: true, lastTemplateByVet: true, pims: true })
  .extend({ serviceUrls: serviceUrls.partial() })
  .partial()
  .strict();
export type SettingsPatch = z.infer<typeof settingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = {
  version: 1,
  useSandbox: true,
  serviceUrls: { agentsUrl: '', scribeUrl: '', agentsApiUrl: '' },
  signInAtScribe: false,
  lastTemplateId: null,
  retentionDays: 7,
  retentionAppliesFrom: null,
  retentionByAccount: {},
  lastTemplateByVet: {},
  inputDeviceId: null,
  scribeOverdueMinutes: 30,
  maxRecordingMinutes: 90,
  askPetOwnerConsent: false,
  recordShortcut: DEFAULT_RECORD_SHORTCUT,
  updateFeedUrl: '',
  pims: null,
  relayUrl: '',
  computerName: '',
};
