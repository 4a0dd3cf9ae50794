// Which service the app talks to, said in plain words, and the way to change it. Main validates
// and keeps the settings; a change of service signs out there (the tokens belong to the other
// service), so this section says so first, and has main try new addresses before they are saved:
// an address where nothing answers is said beside its field and the service in use stays.
import { useId, useState, type FormEvent } from 'react';
import type { Settings, SettingsPatch } from '../../../../shared/settings.ts';
import { api } from '../../api.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import {
  PUBLISHED_URLS,
  readableRefusal,
  refusalsByField,
  refusedFields,
  SERVICE_CHOICES,
  serviceInWords,
  serviceKind,
  URL_FIELDS,
  type ServiceKind,
} from '../../lib/service-kind.ts';
import { ServiceUrlFields } from '../../components/service-url-fields.tsx';
import { SettingsSection } from './section.tsx';
import { SettingFeedback, useMainCall } from './setting-save.tsx';

type Urls = Settings['serviceUrls'];

function changedUrls(before: Urls, after: Urls): Partial<Urls> {
  const changed: Partial<Urls> = {};
  for (const { key } of URL_FIELDS) if (before[key] !== after[key]) changed[key] = after[key].trim();
  return changed;
}

function trimmed(urls: Urls): Urls {
  return { agentsUrl: urls.agentsUrl.trim(), scribeUrl: urls.scribeUrl.trim(), agentsApiUrl: urls.agentsApiUrl.trim() };
}

/** The line under the form: each refused address's reason is beside it, so here only what names none. */
function refusalSummary(error: string | null, fieldsShown: boolean): string | null {
  if (!error) return null;
  if (!fieldsShown || refusedFields(error).size === 0) return readableRefusal(error);
  return ['See the marked address above.', refusalsByField(error).get('')].filter(Boolean).join(' ');
}

function servicePatch(choice: ServiceKind, settings: Settings, urls: Urls): SettingsPatch {
  const patch: SettingsPatch = {};
  if ((choice === 'sandbox') !== settings.useSandbox) patch.useSandbox = choice === 'sandbox';
  if (choice === 'published') {
    const urlPatch = changedUrls(settings.serviceUrls, PUBLISHED_URLS);
    if (Object.keys(urlPatch).length > 0) patch.serviceUrls = urlPatch;
  }
  if (choice === 'other') {
    const urlPatch = changedUrls(settings.serviceUrls, urls);
    if (Object.keys(urlPatch).length > 0) patch.serviceUrls = urlPatch;
  }
  return patch;
}

/** Mounted with a key of the saved values, so a save that main accepts resets the form. */
export function ServiceSection({ settings }: { settings: Settings }) {
  const update = useSettings((s) => s.update);
  const kind = serviceKind(settings);
  const [choice, setChoice] = useState<ServiceKind>(kind);
  const [urls, setUrls] = useState<Urls>(
    kind === 'other' ? settings.serviceUrls : { agentsUrl: '', scribeUrl: '', agentsApiUrl: '' },
  );
  const [signInAtScribe, setSignInAtScribe] = useState(settings.signInAtScribe);
  const { pending, error, setError, run } = useMainCall();
  const busy = pending !== undefined;
  const [info, setInfo] = useState<string | null>(null);
  const ids = useId();

  const patch = servicePatch(choice, settings, urls);
  const serviceChanges = Object.keys(patch).length > 0;
  const dirty = serviceChanges || signInAtScribe !== settings.signInAtScribe;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    setError(null);
    setInfo(null);
    if (!dirty) {
      setInfo('Nothing has changed.');
      return;
    }
    const all: SettingsPatch = { ...patch };
    if (signInAtScribe !== settings.signInAtScribe) all.signInAtScribe = signInAtScribe;
    await run(true, async () => {
      // Tried first: saving another service signs the vet out, which an address where nothing
      // answers would do for nothing.
      if (choice !== 'sandbox' && patch.serviceUrls)
        await api.settings.tryService({ serviceUrls: choice === 'published' ? PUBLISHED_URLS : trimmed(urls) });
      await update(all);
      // The sandbox may have started or stopped: the sign-in screen shows its demo account.
      if (serviceChanges) await useSession.getState().load();
      else setInfo('Saved.');
    });
  }

  return (
    <SettingsSection title="Service">
      <p className="settings-in-use">
        <strong>In use:</strong> {serviceInWords(settings)}
      </p>
      <form onSubmit={save} noValidate aria-busy={busy}>
        <fieldset className="settings-choices">
          <legend>Use this service</legend>
          {SERVICE_CHOICES.map((c) => (
            <div key={c.kind} className="settings-choice">
              <label className="settings-check">
                <input
                  type="radio"
                  name={`${ids}-service`}
                  value={c.kind}
                  checked={choice === c.kind}
                  onChange={() => {
                    // What was said of the last addresses tried goes with them.
                    setChoice(c.kind);
                    setError(null);
                    setInfo(null);
                  }}
                  disabled={busy}
                  aria-describedby={`${ids}-${c.kind}`}
                />
                <span>{c.label}</span>
              </label>
              <p id={`${ids}-${c.kind}`} className="field-hint">
                {c.hint}
              </p>
            </div>
          ))}
        </fieldset>

        {choice === 'other' && (
          <fieldset className="settings-urls">
            <legend>Service addresses</legend>
            <ServiceUrlFields
              urls={urls}
              onChange={setUrls}
              refusal={error}
              errorId={`${ids}-error`}
              readOnly={busy}
              reasonsBeside
            />
          </fieldset>
        )}

        <label className="settings-check">
          <input
            type="checkbox"
            checked={signInAtScribe}
            onChange={(e) => setSignInAtScribe(e.target.checked)}
            disabled={busy}
          />
          <span>Sign in at the scribe address</span>
        </label>
        <p className="field-hint">
          For services that accept only the scribing service&apos;s own sign-in. Leave it off unless your service asks
          for it.
          {/* The path is for whoever sets up another service; the built-in sandbox needs no reader of its documents. */}
          {choice !== 'sandbox' && (
            <>
              {' '}
              <span className="spec-name">
                In the service&apos;s documents: <code>/auth/login</code>
              </span>
            </>
          )}
        </p>

        <p className={`notice ${serviceChanges ? 'notice-warning' : ''} settings-warning`}>
          Changing the service signs you out: a sign-in belongs to the service it was made with. Recordings on this
          computer are kept.
        </p>

        <SettingFeedback
          id={`${ids}-error`}
          error={refusalSummary(error, choice === 'other')}
          notChanged="The service settings were not saved."
          saved={info}
        />
        <div className="row">
          <button type="submit" className="primary" aria-disabled={busy}>
            {busy ? 'Saving…' : serviceChanges ? 'Save and switch service' : 'Save service settings'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
