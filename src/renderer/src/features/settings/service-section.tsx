// Which service the app talks to. Main validates and keeps the settings; a change of service
// signs out there (the tokens belong to the other service), so this section says so first.
import { useId, useState, type FormEvent } from 'react';
import type { Settings, SettingsPatch } from '../../../../shared/settings.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';

type Urls = Settings['serviceUrls'];

const URL_FIELDS: { key: keyof Urls; label: string; hint: string }[] = [
  { key: 'agentsUrl', label: 'Sign-in address (agents_url)', hint: 'Where the app signs in.' },
  { key: 'scribeUrl', label: 'Scribe address (scribe_url)', hint: 'Recordings, notes, the organization and its webhook.' },
  { key: 'agentsApiUrl', label: 'Agents API address (agents_api_url)', hint: 'Differentials and treatment plans.' },
];

function changedUrls(before: Urls, after: Urls): Partial<Urls> {
  const changed: Partial<Urls> = {};
  for (const { key } of URL_FIELDS) if (before[key] !== after[key]) changed[key] = after[key];
  return changed;
}

const URL_KEY = /serviceUrls\.(agentsUrl|scribeUrl|agentsApiUrl):?/g;

/** Main names a refused address by its settings path; the form names it by its label. */
function readable(message: string): string {
  const named = message
    .replace(/^Invalid input for settings:update:\s*/, '')
    .replace(URL_KEY, (_, key: string) => URL_FIELDS.find((f) => f.key === key)?.label ?? key);
  return /[.!?]$/.test(named) ? named : `${named}.`;
}

function refusedFields(message: string): Set<string> {
  return new Set([...message.matchAll(URL_KEY)].map((m) => m[1] ?? ''));
}

/** Mounted with a key of the saved values, so a save that main accepts resets the form. */
export function ServiceSection({ settings }: { settings: Settings }) {
  const update = useSettings((s) => s.update);
  const [useSandbox, setUseSandbox] = useState(settings.useSandbox);
  const [urls, setUrls] = useState<Urls>(settings.serviceUrls);
  const [useLoginRow, setUseLoginRow] = useState(settings.useLoginRow);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refused = error ? refusedFields(error) : new Set<string>();
  const [info, setInfo] = useState<string | null>(null);
  const ids = useId();

  // While the sandbox is on the addresses are not used, so edits to them are not sent.
  const urlPatch = useSandbox ? {} : changedUrls(settings.serviceUrls, urls);
  const serviceChanges = useSandbox !== settings.useSandbox || Object.keys(urlPatch).length > 0;
  const dirty = serviceChanges || useLoginRow !== settings.useLoginRow;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setError(null);
    setInfo(null);
    if (!dirty) {
      setInfo('Nothing has changed.');
      return;
    }
    const patch: SettingsPatch = {};
    if (useSandbox !== settings.useSandbox) patch.useSandbox = useSandbox;
    if (Object.keys(urlPatch).length > 0) patch.serviceUrls = urlPatch;
    if (useLoginRow !== settings.useLoginRow) patch.useLoginRow = useLoginRow;
    setBusy(true);
    try {
      await update(patch);
      // The sandbox may have started or stopped: the sign-in screen shows its demo account.
      if (serviceChanges) await useSession.getState().load();
      else setInfo('Saved.');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="panel settings-section" aria-labelledby={`${ids}-h`}>
      <h2 id={`${ids}-h`}>Service</h2>
      <form onSubmit={save} noValidate aria-busy={busy}>
        <label className="settings-check">
          <input type="checkbox" checked={useSandbox} onChange={(e) => setUseSandbox(e.target.checked)} disabled={busy} />
          <span>Use the built-in sandbox</span>
        </label>
        <p className="field-hint">
          The sandbox runs on this computer and writes practice notes only — not for real patients. Turn it off to use your clinic&apos;s service at the addresses below.
        </p>

        <fieldset className="settings-urls">
          <legend>Service addresses</legend>
          {URL_FIELDS.map(({ key, label, hint }) => (
            <div key={key}>
              <label htmlFor={`${ids}-${key}`}>{label}</label>
              <input
                id={`${ids}-${key}`}
                type="url"
                inputMode="url"
                spellCheck={false}
                autoComplete="off"
                placeholder={useSandbox ? undefined : 'https://'}
                value={urls[key]}
                readOnly={useSandbox || busy}
                aria-invalid={refused.has(key) ? true : undefined}
                aria-describedby={refused.has(key) ? `${ids}-${key}-hint ${ids}-error` : `${ids}-${key}-hint`}
                onChange={(e) => setUrls({ ...urls, [key]: e.target.value })}
              />
              <p id={`${ids}-${key}-hint`} className="field-hint">
                {useSandbox ? 'Not used while the built-in sandbox is on.' : `${hint} An https:// address (http:// only for localhost).`}
              </p>
            </div>
          ))}
        </fieldset>

        <label className="settings-check">
          <input type="checkbox" checked={useLoginRow} onChange={(e) => setUseLoginRow(e.target.checked)} disabled={busy} />
          <span>Sign in through /auth/login</span>
        </label>
        <p className="field-hint">For services that accept only the workflow&apos;s sign-in address. Leave it off unless your service asks for it.</p>

        <p className={`notice ${serviceChanges ? 'notice-warning' : ''} settings-warning`}>
          Changing the service signs you out: a sign-in belongs to the service it was made with. Recordings on this computer are kept.
        </p>

        {error && (
          <p id={`${ids}-error`} className="notice notice-error" role="alert">
            The service settings were not saved. {readable(error)}
          </p>
        )}
        <p className="settings-ok" role="status">
          {info}
        </p>
        <div className="row">
          <button type="submit" className="primary" aria-disabled={busy}>
            {busy ? 'Saving…' : serviceChanges ? 'Save and switch service' : 'Save service settings'}
          </button>
        </div>
      </form>
    </section>
  );
}
