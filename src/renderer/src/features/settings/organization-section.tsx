// The organization's notification address (`PATCH /organizations/update-email-for-notification`):
// where the service sends word of API errors and other important updates. The address in force is
// read from the service when the section opens (`org:get`), and after a change shown as the service
// answered it, not as typed.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { TextField } from '../../components/text-field.tsx';
import { useOrgAnswers } from './org-answers.ts';
import { OfflineNotice, SettingsSection } from './section.tsx';
import { SettingFeedback, useMainCall } from './setting-save.tsx';

// A first check only, for a message next to the field; main and the service check it again.
const LOOKS_LIKE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function OrganizationSection({ needsNetwork }: { needsNetwork: boolean }) {
  const organization = useOrgAnswers((s) => s.organization);
  const from = useOrgAnswers((s) => s.organizationFrom);
  const [email, setEmail] = useState(organization?.emailNotification ?? '');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const { pending, error, setError, run } = useMainCall();
  const busy = pending !== undefined;
  const [readError, setReadError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);
  const ids = useId();

  useEffect(() => {
    if (needsNetwork) return;
    let current = true;
    api.org
      .get()
      .then((read) => {
        if (!current) return;
        useOrgAnswers.getState().setOrganization(read, 'read');
        // What the vet has started typing is not overwritten.
        setEmail((typed) => (typed === '' ? (read.emailNotification ?? '') : typed));
      })
      .catch((e: unknown) => current && setReadError((e as Error).message));
    return () => {
      current = false;
    };
  }, [needsNetwork, reads]);

  async function save(e: FormEvent) {
    e.preventDefault();
    if (busy || needsNetwork) return;
    setError(null);
    const value = email.trim();
    const problem =
      value === ''
        ? 'Enter the e-mail address that should receive notifications.'
        : LOOKS_LIKE_EMAIL.test(value)
          ? null
          : 'Enter a whole e-mail address, like reception@clinic.com.';
    setFieldError(problem);
    if (problem) return;
    await run(true, async () => {
      const answer = await api.org.setNotificationEmail({ email: value });
      useOrgAnswers.getState().setOrganization(answer, 'saved');
      if (answer.emailNotification) setEmail(answer.emailNotification);
    });
  }

  return (
    <SettingsSection title="Organization">
      <p className="muted">
        The service e-mails this address about errors and other important updates for your organization.
      </p>
      {needsNetwork && <OfflineNotice />}
      <form onSubmit={save} noValidate aria-busy={busy}>
        <TextField
          id={`${ids}-email`}
          label="Notification email"
          error={fieldError}
          type="email"
          autoComplete="email"
          value={email}
          onValue={setEmail}
          readOnly={busy}
          rowClassName="row settings-inline"
          beside={
            // aria-disabled, not disabled: the keyboard focus stays on the button while it waits.
            <button type="submit" className="primary" aria-disabled={busy || needsNetwork}>
              {busy ? 'Saving…' : 'Save'}
            </button>
          }
        />
      </form>
      <SettingFeedback error={error} notChanged="The notification address was not changed." />
      {readError && (
        <div className="notice notice-error" role="alert">
          <p>The address in force could not be read from the service. {readError}</p>
          <button
            type="button"
            onClick={() => {
              setReadError(null);
              setReads((n) => n + 1);
            }}
          >
            Read it again
          </button>
        </div>
      )}
      {/* No address is not a success: it is said plainly, in the colour of the text around it. */}
      <p className={organization?.emailNotification ? 'settings-ok' : 'settings-none'} role="status">
        {organization &&
          (organization.emailNotification
            ? `Notifications ${from === 'saved' ? 'now ' : ''}go to ${organization.emailNotification} (${organization.name}).`
            : `The service has no notification address for ${organization.name}.`)}
      </p>
    </SettingsSection>
  );
}
