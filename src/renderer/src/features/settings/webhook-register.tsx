// Registering the clinic's webhook (`PUT /webhook/update`, docs/service.md): the https address
// where the service posts a signed message for each note, and the secret it signs with. The
// secret goes to main, which hands it to the service and keeps it in the keychain; the window
// never shows it again, and the field is emptied once it is sent.
import { useId, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { MAX_SECRET, MAX_URL, MIN_WEBHOOK_SECRET } from '../../../../shared/limits.ts';
import { TextField } from '../../components/text-field.tsx';
import { useCheckedForm, type FieldProblems } from '../../hooks/use-checked-form.ts';
import { useOrgAnswers } from './org-answers.ts';
import { SettingFeedback, useMainCall } from './setting-save.tsx';

type Problems = FieldProblems<'url' | 'secret'>;

function parses(address: string): boolean {
  try {
    new URL(address);
    return true;
  } catch {
    return false;
  }
}

/** The first check, next to the fields; main and the service check again. */
export function webhookProblems(url: string, secret: string): Problems {
  const problems: Problems = {};
  const address = url.trim();
  if (address === '') problems.url = 'Enter the https:// address of the clinic’s webhook receiver.';
  else if (!/^https:\/\/[^\s/]+/i.test(address) || !parses(address))
    problems.url =
      'The address must be a whole https:// address the service can reach, like https://clinic.example/webhooks/scribe.';
  if (secret === '') problems.secret = 'Enter the signing secret.';
  else if (secret.length < MIN_WEBHOOK_SECRET)
    problems.secret = `The secret must be at least ${MIN_WEBHOOK_SECRET} characters long (it has ${secret.length}).`;
  return problems;
}

export function WebhookRegister({ needsNetwork }: { needsNetwork: boolean }) {
  const answer = useOrgAnswers((s) => s.webhook);
  const [url, setUrl] = useState(answer?.url ?? '');
  const [secret, setSecret] = useState('');
  const { problems, inputRef, passes } = useCheckedForm(['url', 'secret'] as const);
  const { pending, error, setError, run } = useMainCall();
  const busy = pending !== undefined;
  const ids = useId();

  async function register(e: FormEvent) {
    e.preventDefault();
    if (busy || needsNetwork) return;
    setError(null);
    if (!passes(webhookProblems(url, secret))) return;
    const address = url.trim();
    await run(true, async () =>
      useOrgAnswers.getState().setWebhook(await api.org.registerWebhook({ url: address, secret }), address),
    );
    // Sent is enough: the secret does not stay in the window.
    setSecret('');
  }

  // What the two fields have alike: their problem, and read-only while the service is asked.
  const field = (key: keyof Problems, label: string, value: string, onValue: (typed: string) => void) => ({
    id: `${ids}-${key}`,
    label,
    error: problems[key],
    value,
    onValue,
    readOnly: busy,
  });

  const registered = answer?.url;
  return (
    <form
      className="settings-webhook-form"
      onSubmit={register}
      noValidate
      aria-busy={busy}
      aria-labelledby={`${ids}-h`}
    >
      <h3 id={`${ids}-h`}>Register the clinic&apos;s webhook</h3>
      <p className="muted">
        For the clinic&apos;s administrator. The service posts a signed message to this address at each step of every
        note, signed with the secret below. Use the same secret in the clinic&apos;s receiver. The secret goes to the
        service and this computer&apos;s keychain only.
      </p>
      <TextField
        {...field('url', 'Webhook address', url, setUrl)}
        inputRef={inputRef('url')}
        type="url"
        autoComplete="off"
        placeholder="https://"
        maxLength={MAX_URL}
      />
      <TextField
        {...field('secret', 'Signing secret', secret, setSecret)}
        inputRef={inputRef('secret')}
        hint={`At least ${MIN_WEBHOOK_SECRET} characters. It is not shown again once sent.`}
        type="password"
        autoComplete="new-password"
        spellCheck={false}
        maxLength={MAX_SECRET}
      />
      <SettingFeedback
        error={error}
        notChanged="The webhook was not registered."
        saved={
          (registered &&
            !busy &&
            `Registered: the service posts "${answer.webhook.eventType}" events to ${registered}.`) ||
          null
        }
      />
      <div className="row">
        <button type="submit" className="primary" aria-disabled={busy || needsNetwork}>
          {busy ? 'Registering…' : 'Register webhook'}
        </button>
      </div>
    </form>
  );
}
