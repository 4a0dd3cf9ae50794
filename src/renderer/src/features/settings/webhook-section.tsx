// The scribe webhook's activity (`PATCH /webhook/status`). The service can switch it but not read
// it, so the switch starts "unknown" and afterwards shows what the service answered, never a guess.
// With the built-in sandbox it says so in the sandbox's terms: there is nothing to tell a service
// about, only a switch to try.
import { useId } from 'react';
import { api } from '../../api.ts';
import { useOrgAnswers, type WebhookAnswer } from './org-answers.ts';
import { WebhookRegister } from './webhook-register.tsx';
import { OfflineNotice, SettingsSection } from './section.tsx';
import { SettingFeedback, useMainCall } from './setting-save.tsx';

function stateLine(answer: WebhookAnswer | null, pending: boolean | undefined, sandbox: boolean): string {
  if (pending !== undefined) return `Telling the service to turn them ${pending ? 'on' : 'off'}…`;
  if (!answer && sandbox) return 'Not set from this sign-in: turn them on or off to try it with the built-in sandbox.';
  if (!answer) return 'Unknown — set it to tell the service.';
  const at = new Date(answer.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const { webhook } = answer;
  return webhook.isActive
    ? `On — the service answered at ${at} that notifications for "${webhook.eventType}" events are enabled.`
    : `Off — the service answered at ${at} that notifications for "${webhook.eventType}" events are disabled.`;
}

export function WebhookSection({ needsNetwork, sandbox }: { needsNetwork: boolean; sandbox: boolean }) {
  const answer = useOrgAnswers((s) => s.webhook);
  const { pending, error, run } = useMainCall<boolean>();
  const ids = useId();

  // While the call runs the switch shows where it is going; on failure it falls back to the answer.
  const shown = pending ?? answer?.webhook.isActive ?? null;

  async function toggle() {
    if (pending !== undefined || needsNetwork) return;
    const active = !(answer?.webhook.isActive ?? false);
    await run(active, async () => useOrgAnswers.getState().setWebhook(await api.org.setScribeWebhook({ active })));
  }

  return (
    <SettingsSection title="Webhook">
      <p className="muted">
        When on, the service posts a signed message to your clinic&apos;s webhook address for each note. The address is
        registered below.
      </p>
      {needsNetwork && <OfflineNotice />}
      <div className="settings-switch-row">
        <span id={`${ids}-label`} className="settings-switch-label">
          Scribe webhook notifications
        </span>
        <button
          type="button"
          role="switch"
          className="settings-switch"
          data-state={shown === null ? 'unknown' : shown ? 'on' : 'off'}
          aria-checked={shown === true}
          aria-labelledby={`${ids}-label`}
          aria-describedby={`${ids}-state`}
          aria-busy={pending !== undefined}
          // Not \`disabled\`: that would drop the keyboard focus while the service answers.
          aria-disabled={pending !== undefined || needsNetwork}
          onClick={() => void toggle()}
        >
          <span className="settings-switch-track" aria-hidden="true">
            <span className="settings-switch-knob" />
          </span>
          <span className="settings-switch-text" aria-hidden="true">
            {shown === null ? (sandbox ? 'Not set' : 'Unknown') : shown ? 'On' : 'Off'}
          </span>
        </button>
      </div>
      <p id={`${ids}-state`} className={answer || pending !== undefined ? 'settings-ok' : 'muted'} role="status">
        {stateLine(answer, pending, sandbox)}
      </p>
      <SettingFeedback error={error} notChanged="The webhook was not changed." />
      <WebhookRegister needsNetwork={needsNetwork} />
    </SettingsSection>
  );
}
