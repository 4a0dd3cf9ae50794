// The Settings view against the real engine: a core with its embedded sandbox, signed in with
// the demo account. What the service answered is what the view shows.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { tidyWindowTests, windowWithEngine, type WindowCall } from '../../support/window.ts';
import { SettingsView } from '../../../../src/renderer/src/features/settings/settings-view.tsx';
import { useSettings } from '../../../../src/renderer/src/stores/settings.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';

let core: AppCore;
let calls: WindowCall[];
/** The channels the window called, in order. */
const channels = () => calls.map((c) => c.channel);
/** Channels whose next call fails as if main had refused it (a load error cannot be made for real). */
const failNext = new Set<string>();

beforeAll(async () => {
  ({ core, calls } = await windowWithEngine({ signIn: true, refuse: (channel) => failNext.delete(channel) }));
  await useSession.getState().load();
}, 30_000);

tidyWindowTests(() => ({ core, calls }));

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

/** The sentence that says what the service answered about the webhook switch. */
function switchState(hook: HTMLElement): HTMLElement {
  const toggle = within(hook).getByRole('switch', { name: 'Scribe webhook notifications' });
  return document.getElementById(toggle.getAttribute('aria-describedby')!)!;
}

/** The sandbox's own record of the demo organization, as it saved it. */
function sandboxState(): {
  organizations: { name: string; email_notification: string | null }[];
  webhooks: { event_type: string; is_active: boolean }[];
} {
  return JSON.parse(readFileSync(join(core.options.dataDir, 'sandbox', 'sandbox-state.json'), 'utf8'));
}

async function renderLoaded() {
  render(<SettingsView />);
  await screen.findByRole('region', { name: 'Service' });
}

describe('settings view', () => {
  it('says when the settings cannot be loaded, and loads them on "Try again"', async () => {
    useSettings.setState({ settings: null });
    failNext.add('settings:get');
    render(<SettingsView />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The settings could not be loaded. Main refused the call.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Service' })).toBeTruthy();
    expect(channels().filter((c) => c === 'settings:get')).toHaveLength(2);
  });

  it('shows the notification address in force, as the service has it', async () => {
    const inForce = await core.organization.get();
    await renderLoaded();
    const org = section('Organization');
    const expected = inForce.emailNotification
      ? `Notifications go to ${inForce.emailNotification} (${inForce.name}).`
      : `The service has no notification address for ${inForce.name}.`;
    await waitFor(() => expect(within(org).getByRole('status').textContent).toBe(expected));
    expect(channels()).toContain('org:get');
    expect(within(org).getByLabelText('Notification email')).toHaveProperty('value', inForce.emailNotification ?? '');
  });

  it('says when the address in force cannot be read, and reads it again', async () => {
    failNext.add('org:get');
    await renderLoaded();
    const org = section('Organization');
    const alert = await within(org).findByRole('alert');
    expect(alert.textContent).toContain(
      'The address in force could not be read from the service. Main refused the call.',
    );
    fireEvent.click(within(alert).getByRole('button', { name: 'Read it again' }));
    await waitFor(() => expect(within(org).queryByRole('alert')).toBeNull());
    expect(channels().filter((c) => c === 'org:get')).toHaveLength(2);
  });

  it('saves the notification e-mail and shows the address as the service returned it', async () => {
    await renderLoaded();
    const org = section('Organization');
    fireEvent.change(within(org).getByLabelText('Notification email'), {
      target: { value: '  Reception@Clinic.test ' },
    });
    fireEvent.click(within(org).getByRole('button', { name: 'Save' }));
    await within(org).findByText(/Notifications now go to Reception@Clinic\.test/);
    expect(within(org).getByRole('status').textContent).toBe(
      'Notifications now go to Reception@Clinic.test (Sandbox Veterinary Clinic).',
    );
    expect(channels()).toContain('org:setNotificationEmail');
    const demoOrg = sandboxState().organizations.find((o) => o.name === 'Sandbox Veterinary Clinic');
    expect(demoOrg?.email_notification).toBe('Reception@Clinic.test');
  });

  it('checks the notification e-mail before asking the service', async () => {
    await renderLoaded();
    const org = section('Organization');
    const field = within(org).getByLabelText('Notification email');
    fireEvent.change(field, { target: { value: 'reception at clinic' } });
    fireEvent.submit(field.closest('form')!);
    expect(within(org).getByText('Enter a whole e-mail address, like reception@clinic.com.')).toBeTruthy();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(channels()).not.toContain('org:setNotificationEmail');
  });

  it('turns the scribe webhook on and off, showing what the service answered', async () => {
    await renderLoaded();
    const hook = section('Webhook');
    const toggle = within(hook).getByRole('switch', { name: 'Scribe webhook notifications' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    expect(toggle.getAttribute('data-state')).toBe('unknown');
    // With the built-in sandbox there is nothing to tell a service: only a switch to try.
    expect(switchState(hook).textContent).toBe(
      'Not set from this sign-in: turn them on or off to try it with the built-in sandbox.',
    );
    // In words on the switch too, not a question mark.
    expect(toggle.textContent).toBe('Not set');

    toggle.focus();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-busy')).toBe('true');
    expect(toggle.getAttribute('aria-disabled')).toBe('true');
    await waitFor(() =>
      expect(switchState(hook).textContent).toMatch(
        /^On — the service answered at .* that notifications for "scribe" events are enabled\.$/,
      ),
    );
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    expect(toggle.getAttribute('aria-disabled')).toBe('false');
    // The keyboard user is still on the switch after the service answered.
    expect(document.activeElement).toBe(toggle);
    expect(sandboxState().webhooks.some((w) => w.event_type === 'scribe' && w.is_active)).toBe(true);

    // The answer outlives the view for this sign-in: it is still there when Settings opens again.
    cleanup();
    await renderLoaded();
    const again = within(section('Webhook')).getByRole('switch', { name: 'Scribe webhook notifications' });
    expect(again.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(again);
    await waitFor(() => expect(switchState(section('Webhook')).textContent).toMatch(/^Off — the service answered/));
    expect(again.getAttribute('aria-checked')).toBe('false');
    expect(again.getAttribute('data-state')).toBe('off');
  });

  it('falls back to the last answer and shows why when the webhook call fails', async () => {
    await renderLoaded();
    const hook = section('Webhook');
    const toggle = within(hook).getByRole('switch', { name: 'Scribe webhook notifications' });
    const before = toggle.getAttribute('aria-checked');
    failNext.add('org:setScribeWebhook');
    fireEvent.click(toggle);
    const alert = await within(hook).findByRole('alert');
    expect(alert.textContent).toBe('The webhook was not changed. Main refused the call.');
    expect(switchState(hook).getAttribute('role')).toBe('status');
    expect(toggle.getAttribute('aria-checked')).toBe(before);
  });

  it('saves the audio retention at once', async () => {
    await renderLoaded();
    const retention = section('Audio retention');
    const select = within(retention).getByRole('combobox', { name: 'Keep recordings after the note is ready' });
    expect(select).toHaveProperty('value', '7');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['1 day', '7 days (default)', '30 days', '90 days', 'Forever', 'Delete right after the note is ready']);
    select.focus();
    fireEvent.change(select, { target: { value: '30' } });
    await within(retention).findByText('Saved. Recordings are kept 30 days after the note is ready.');
    expect(core.appSettings.view().retentionDays).toBe(30);
    expect(select).toHaveProperty('value', '30');
    expect(document.activeElement).toBe(select);

    fireEvent.change(select, { target: { value: '0' } });
    await within(retention).findByText('Saved. A recording is deleted as soon as its note is ready.');
    expect(core.appSettings.view().retentionDays).toBe(0);

    fireEvent.change(select, { target: { value: 'forever' } });
    await within(retention).findByText('Saved. Recordings are kept until you delete them.');
    expect(core.appSettings.view().retentionDays).toBeNull();
  });

  it("shows main's refusal of a bad service address beside its field and keeps the old settings", async () => {
    await renderLoaded();
    const service = section('Service');
    const before = structuredClone(core.settings.get());
    expect(within(service).getByRole('radio', { name: 'Built-in sandbox (demo, no real notes)' })).toHaveProperty(
      'checked',
      true,
    );
    expect(within(service).queryByLabelText('Sign-in address')).toBeNull();

    fireEvent.click(within(service).getByRole('radio', { name: 'Other addresses' }));
    const signInUrl = within(service).getByLabelText('Sign-in address');
    // The spec's placeholder names are only small hints beside the fields.
    expect(document.getElementById(signInUrl.getAttribute('aria-describedby')!)!.textContent).toContain('agents_url');
    fireEvent.change(signInUrl, { target: { value: 'http://agents.example.com' } });
    fireEvent.change(within(service).getByLabelText('Scribe address'), {
      target: { value: 'https://scribe.example.com' },
    });
    fireEvent.change(within(service).getByLabelText('Clinical agents address'), {
      target: { value: 'https://agents-api.example.com' },
    });
    expect(within(service).getByText(/Changing the service signs you out/)).toBeTruthy();
    fireEvent.click(within(service).getByRole('button', { name: 'Save and switch service' }));

    const alert = await within(service).findByRole('alert');
    expect(alert.textContent).toBe('The service settings were not saved. See the marked address above.');
    expect(signInUrl.getAttribute('aria-invalid')).toBe('true');
    const reason = signInUrl.getAttribute('aria-describedby')!.split(' ')[0]!;
    expect(document.getElementById(reason)!.textContent).toBe(
      'Sign-in address must be an https:// address (http:// only for localhost).',
    );
    expect(within(service).getByLabelText('Scribe address').getAttribute('aria-invalid')).toBeNull();
    expect(core.settings.get()).toEqual(before);
    expect(core.session.state().signedIn).toBe(true);
    // What was typed stays, to be corrected.
    expect(signInUrl).toHaveProperty('value', 'http://agents.example.com');
    expect(within(service).getByRole('radio', { name: 'Other addresses' })).toHaveProperty('checked', true);
  });

  it('says which service is in use in plain words', async () => {
    await renderLoaded();
    const service = section('Service');
    expect(service.querySelector('.settings-in-use')!.textContent).toBe(
      'In use: The built-in sandbox on this computer: a demo that writes example notes, not for real patients.',
    );
    expect(service.textContent).not.toMatch(/agents_url/);
  });

  it('saves the sign-in row choice without signing out', async () => {
    await renderLoaded();
    const service = section('Service');
    fireEvent.click(within(service).getByRole('checkbox', { name: 'Sign in at the scribe address' }));
    fireEvent.click(within(service).getByRole('button', { name: 'Save service settings' }));
    await waitFor(() => expect(core.settings.get().signInAtScribe).toBe(true));
    expect(core.session.state().signedIn).toBe(true);
    expect(within(section('Service')).getByRole('checkbox', { name: 'Sign in at the scribe address' })).toHaveProperty(
      'checked',
      true,
    );
  });

  it('says where the sign-in is kept and what service is in use', async () => {
    await renderLoaded();
    const keychain = section('Where your sign-in is kept');
    expect(keychain.textContent).toContain(core.appInfo().secretStore.description);
    // The fact, not a second warning (the window's notice is the one warning).
    expect(keychain.textContent).toContain('for this run only');
    expect(keychain.querySelector('.notice')).toBeNull();
    expect(keychain.textContent).not.toMatch(/No secure store|No system keychain/);
    const about = section('About');
    expect(about.textContent).toContain('Vet Scribe');
    expect(about.textContent).toContain('test');
    expect(about.textContent).toContain('The built-in sandbox on this computer');
  });

  it('forgets the service answers when the session ends', async () => {
    await renderLoaded();
    act(() => {
      core.emit('session:changed', { signedIn: false, user: null, endedBecause: null });
    });
    cleanup();
    await renderLoaded();
    expect(
      within(section('Webhook'))
        .getByRole('switch', { name: 'Scribe webhook notifications' })
        .getAttribute('data-state'),
    ).toBe('unknown');
    expect(within(section('Webhook')).queryByText(/^Registered:/)).toBeNull();
    // What the last sign-in saved is gone; the section reads the address afresh.
    expect(within(section('Organization')).getByRole('status').textContent).not.toContain('now go to');
  });
});

describe('webhook registration', () => {
  const SECRET = 'correct-horse-battery-staple-42';
  const URL_OK = 'https://clinic.example/webhooks/scribe';
  const form = () => within(section('Webhook')).getByRole('form', { name: "Register the clinic's webhook" });

  it('checks the address and the secret before anything is sent', async () => {
    await renderLoaded();
    const f = within(form());
    fireEvent.click(f.getByRole('button', { name: 'Register webhook' }));
    expect(f.getByText('Enter the https:// address of the clinic’s webhook receiver.')).toBeTruthy();
    expect(f.getByText('Enter the signing secret.')).toBeTruthy();
    expect(document.activeElement).toBe(f.getByLabelText('Webhook address'));

    fireEvent.change(f.getByLabelText('Webhook address'), { target: { value: 'http://clinic.example/hook' } });
    fireEvent.change(f.getByLabelText('Signing secret'), { target: { value: 'short' } });
    fireEvent.click(f.getByRole('button', { name: 'Register webhook' }));
    expect(f.getByText(/^The address must be a whole https:\/\/ address/)).toBeTruthy();
    expect(f.getByText('The secret must be at least 16 characters long (it has 5).')).toBeTruthy();
    expect(f.getByLabelText('Webhook address').getAttribute('aria-invalid')).toBe('true');
    expect(f.getByLabelText('Signing secret').getAttribute('aria-invalid')).toBe('true');
    expect(channels()).not.toContain('org:registerWebhook');
  });

  it('registers the address and secret, empties the secret, and never shows it', async () => {
    await renderLoaded();
    const f = within(form());
    const secret = f.getByLabelText('Signing secret') as HTMLInputElement;
    expect(secret.type).toBe('password');
    expect(secret.getAttribute('autocomplete')).toBe('new-password');
    fireEvent.change(f.getByLabelText('Webhook address'), { target: { value: ` ${URL_OK} ` } });
    fireEvent.change(secret, { target: { value: SECRET } });
    fireEvent.click(f.getByRole('button', { name: 'Register webhook' }));
    await f.findByText(`Registered: the service posts "scribe" events to ${URL_OK}.`);
    expect(channels()).toContain('org:registerWebhook');
    expect(secret.value).toBe('');
    expect(document.body.innerHTML).not.toContain(SECRET);
    expect(JSON.stringify(core.settings.get())).not.toContain(SECRET);
  });

  it('says why a registration failed, and does not keep the secret', async () => {
    await renderLoaded();
    const f = within(form());
    fireEvent.change(f.getByLabelText('Webhook address'), { target: { value: URL_OK } });
    fireEvent.change(f.getByLabelText('Signing secret'), { target: { value: SECRET } });
    failNext.add('org:registerWebhook');
    fireEvent.click(f.getByRole('button', { name: 'Register webhook' }));
    expect((await f.findByRole('alert')).textContent).toBe('The webhook was not registered. Main refused the call.');
    expect((f.getByLabelText('Signing secret') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain(SECRET);
  });
});
