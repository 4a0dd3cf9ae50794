// Which service the app talks to, in the vet's words: the clinic's PupPilot account (the
// published hosts), the built-in sandbox, or other addresses. The sign-in screen and Settings
// both choose with these.
import { PUBLISHED_SERVICE_URLS } from '../../../shared/published-service.ts';
import type { Settings } from '../../../shared/settings.ts';

type Urls = Settings['serviceUrls'];

/** The published service's three hosts (docs/service.md, "Three hosts"). */
export const PUBLISHED_URLS: Urls = { ...PUBLISHED_SERVICE_URLS };

export type ServiceKind = 'published' | 'sandbox' | 'other';

export const SERVICE_CHOICES: readonly { kind: ServiceKind; label: string; hint: string }[] = [
  {
    kind: 'published',
    label: "PupPilot (the clinic's account)",
    hint: 'Real notes from your recordings, with the account your clinic has at PupPilot.',
  },
  {
    kind: 'sandbox',
    label: 'Built-in sandbox (demo, no real notes)',
    hint: 'Runs on this computer to try the app: it writes example notes, not from the audio.',
  },
  {
    kind: 'other',
    label: 'Other addresses',
    hint: 'A service at addresses your clinic was given (for example, a test service).',
  },
];

/** The three addresses, each with the name the service's documents give it, shown only as a small hint. */
export const URL_FIELDS: readonly { key: keyof Urls; label: string; specName: string; hint: string }[] = [
  { key: 'agentsUrl', label: 'Sign-in address', specName: 'agents_url', hint: 'Where the app signs in.' },
  {
    key: 'scribeUrl',
    label: 'Scribe address',
    specName: 'scribe_url',
    hint: 'Recordings, notes, the organization and its webhook.',
  },
  {
    key: 'agentsApiUrl',
    label: 'Clinical agents address',
    specName: 'agents_api_url',
    hint: 'Differentials, treatment plans and medications.',
  },
];

const sameUrl = (a: string, b: string) =>
  a.trim().replace(/\/+$/, '').toLowerCase() === b.trim().replace(/\/+$/, '').toLowerCase();

export function serviceKind(settings: Pick<Settings, 'useSandbox' | 'serviceUrls'>): ServiceKind {
  if (settings.useSandbox) return 'sandbox';
  return URL_FIELDS.every(({ key }) => sameUrl(settings.serviceUrls[key], PUBLISHED_URLS[key])) ? 'published' : 'other';
}

/** One sentence saying which service is in use. */
export function serviceInWords(settings: Pick<Settings, 'useSandbox' | 'serviceUrls'>): string {
  switch (serviceKind(settings)) {
    case 'sandbox':
      return 'The built-in sandbox on this computer: a demo that writes example notes, not for real patients.';
    case 'published':
      return "PupPilot, with your clinic's account.";
    case 'other':
      return `The service at ${settings.serviceUrls.agentsUrl || 'addresses not yet given'}.`;
  }
}

/** The service in a few words, for the sign-in screen's one line (Settings says it in full). */
export function serviceShortName(settings: Pick<Settings, 'useSandbox' | 'serviceUrls'>): string {
  switch (serviceKind(settings)) {
    case 'sandbox':
      return 'Built-in sandbox (demo)';
    case 'published':
      return 'PupPilot';
    case 'other':
      return settings.serviceUrls.agentsUrl || 'addresses not yet given';
  }
}

const URL_KEY = /serviceUrls\.(agentsUrl|scribeUrl|agentsApiUrl):?/g;

const CALL_PREFIX = /^Invalid input for settings:\w+:\s*/;

/** Main names a refused address by its settings path; the forms name it by its label. */
export function readableRefusal(message: string): string {
  const named = message
    .replace(CALL_PREFIX, '')
    .replace(URL_KEY, (_, key: string) => URL_FIELDS.find((f) => f.key === key)?.label ?? key);
  return /[.!?]$/.test(named) ? named : `${named}.`;
}

/** The addresses main refused, by their settings key. */
export function refusedFields(message: string): Set<string> {
  return new Set([...message.matchAll(URL_KEY)].map((m) => m[1] ?? ''));
}

/**
 * Main's refusal cut into what it says of each address (by settings key, in words beginning with
 * the field's label), so each reason can stand beside its field; what names no address is under ''.
 */
export function refusalsByField(message: string): Map<string, string> {
  const text = message.replace(CALL_PREFIX, '');
  const found = [...text.matchAll(URL_KEY)];
  const parts = new Map<string, string>();
  const add = (key: string, said: string) => {
    const words = said.trim().replace(/;$/, '').trim();
    if (words === '') return;
    const label = URL_FIELDS.find((f) => f.key === key)?.label;
    const sentence = label ? `${label} ${words}` : words;
    const whole = /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
    parts.set(key, parts.has(key) ? `${parts.get(key)} ${whole}` : whole);
  };
  add('', text.slice(0, found[0]?.index ?? text.length));
  found.forEach((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    add(m[1] ?? '', text.slice(start, found[i + 1]?.index ?? text.length));
  });
  return parts;
}
