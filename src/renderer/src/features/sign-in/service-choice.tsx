// The service to sign in to, chosen on the sign-in screen in one step and without signing in
// first (Settings is reachable only when signed in, so a wrong choice must not lock the vet
// out): the clinic's PupPilot account, the built-in sandbox, or other addresses. Main keeps
// the choice, starts or stops the sandbox, and the screen reloads what it shows (the demo
// account appears with the sandbox). The service in use is one short line; the three choices
// and their hints open on "Change service" only, so that Sign in stays on the first screen.
import { useEffect, useId, useState, type FormEvent } from 'react';
import type { Settings, SettingsPatch } from '../../../../shared/settings.ts';
import { useSession } from '../../stores/session.ts';
import { useSettings } from '../../stores/settings.ts';
import {
  PUBLISHED_URLS,
  readableRefusal,
  SERVICE_CHOICES,
  serviceShortName,
  serviceKind,
  type ServiceKind,
} from '../../lib/service-kind.ts';
import { ServiceUrlFields } from '../../components/service-url-fields.tsx';

type Urls = Settings['serviceUrls'];

export function ServiceChoice({ disabled }: { disabled: boolean }) {
  const settings = useSettings((s) => s.settings);
  const [busy, setBusy] = useState<ServiceKind | null>(null);
  const [error, setError] = useState<string | null>(null);
  // "Other addresses" opens its fields first; the other two apply at once.
  const [otherOpen, setOtherOpen] = useState(false);
  const [choicesOpen, setChoicesOpen] = useState(false);
  const [urls, setUrls] = useState<Urls | null>(null);
  const ids = useId();

  // Read afresh each time the screen opens: the settings may have changed since they were last read.
  useEffect(() => {
    useSettings
      .getState()
      .load()
      .catch((e: unknown) => setError((e as Error).message));
  }, []);

  if (!settings) {
    return error ? (
      <p className="field-error" role="alert">
        The service in use could not be read: {error}
      </p>
    ) : null;
  }
  const kind = serviceKind(settings);
  const shownKind: ServiceKind = otherOpen ? 'other' : kind;
  const typed = urls ?? (kind === 'other' ? settings.serviceUrls : { agentsUrl: '', scribeUrl: '', agentsApiUrl: '' });

  async function apply(next: ServiceKind, patch: SettingsPatch) {
    setBusy(next);
    setError(null);
    try {
      await useSettings.getState().update(patch);
      await useSession.getState().load();
      setOtherOpen(false);
      setUrls(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  }

  function choose(next: ServiceKind) {
    if (busy) return;
    setError(null);
    if (next === 'other') {
      setOtherOpen(true);
      return;
    }
    setOtherOpen(false);
    if (next === kind) return;
    void apply(
      next,
      next === 'sandbox' ? { useSandbox: true } : { useSandbox: false, serviceUrls: { ...PUBLISHED_URLS } },
    );
  }

  function submitOther(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    void apply('other', {
      useSandbox: false,
      serviceUrls: {
        agentsUrl: typed.agentsUrl.trim(),
        scribeUrl: typed.scribeUrl.trim(),
        agentsApiUrl: typed.agentsApiUrl.trim(),
      },
    });
  }

  return (
    <section className="sign-in-service" aria-label="Service in use">
      <div className="sign-in-service-line">
        <p id={`${ids}-now`}>{busy ? 'Switching the service…' : `Signing in to: ${serviceShortName(settings)}`}</p>
        <button
          type="button"
          className="link"
          aria-expanded={choicesOpen}
          aria-controls={`${ids}-choices`}
          onClick={() => setChoicesOpen((open) => !open)}
        >
          Change service
        </button>
      </div>
      {choicesOpen && (
        <div
          id={`${ids}-choices`}
          className="service-choices"
          role="group"
          aria-label="Service"
          aria-describedby={`${ids}-now`}
        >
          {SERVICE_CHOICES.map((c) => (
            <div key={c.kind} className="service-choice">
              <button
                type="button"
                aria-pressed={shownKind === c.kind}
                aria-describedby={`${ids}-${c.kind}`}
                aria-busy={busy === c.kind}
                disabled={disabled || (busy !== null && busy !== c.kind)}
                onClick={() => choose(c.kind)}
              >
                {shownKind === c.kind && (
                  <span className="service-choice-mark" aria-hidden="true">
                    ✓{' '}
                  </span>
                )}
                {c.label}
              </button>
              <span className="service-choice-hint" id={`${ids}-${c.kind}`}>
                {c.hint}
              </span>
            </div>
          ))}
        </div>
      )}
      {choicesOpen && otherOpen && (
        <form className="service-other" onSubmit={submitOther} noValidate aria-label="Other addresses">
          <ServiceUrlFields
            urls={typed}
            onChange={setUrls}
            refusal={error}
            errorId={`${ids}-error`}
            readOnly={busy !== null}
          />
          <div className="row">
            <button type="submit" className="primary" aria-disabled={busy !== null || disabled}>
              {busy === 'other' ? 'Switching…' : 'Use these addresses'}
            </button>
            <button type="button" onClick={() => setOtherOpen(false)} disabled={busy !== null}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {error && (
        <p id={`${ids}-error`} className="field-error" role="alert">
          The service was not changed. {readableRefusal(error)}
        </p>
      )}
    </section>
  );
}
