// The sign-in screen against the real engine: a core with its embedded sandbox, nobody signed in.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { PUBLISHED_SERVICE_URLS } from '../../../../src/shared/settings.ts';
import { PUBLISHED_URLS, serviceKind } from '../../../../src/renderer/src/lib/service-kind.ts';
import { tidyWindowTests, windowWithEngine, type WindowCall } from '../../support/window.ts';
import { SignIn } from '../../../../src/renderer/src/features/sign-in/sign-in.tsx';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';

let core: AppCore;
/** Every channel the window called, in order: the real bridge, watched. */
let calls: WindowCall[];
const channels = () => calls.map((c) => c.channel);
/** The calls about signing in (the screen also reads the settings, to name the service). */
const sessionCalls = () => channels().filter((c) => c.startsWith('session:'));

beforeAll(async () => {
  ({ core, calls } = await windowWithEngine({ signIn: false }));
  await useSession.getState().load();
});

tidyWindowTests(() => ({ core, calls }));

const emailField = () => screen.getByLabelText('Email');
const passwordField = () => screen.getByLabelText('Password');

describe('sign-in screen', () => {
  it('focuses the e-mail field, shows the sandbox demo account and where the sign-in is kept', () => {
    render(<SignIn />);
    const demo = core.appInfo().sandbox!.demo;
    expect(document.activeElement).toBe(emailField());
    expect(emailField()).toHaveProperty('type', 'email');
    expect(emailField().getAttribute('autocomplete')).toBe('username');
    expect(passwordField()).toHaveProperty('type', 'password');
    expect(passwordField().getAttribute('autocomplete')).toBe('current-password');
    expect(screen.getByRole('note', { name: 'Sandbox service' }).textContent).toContain(
      `demo account: ${demo.email} / ${demo.password}`,
    );
    expect(screen.getByText(/Your sign-in is kept/).textContent).toBe(
      `Your sign-in is kept ${core.appInfo().secretStore.description}.`,
    );
    // The test core keeps tokens in memory: the screen says it does not last, once.
    expect(screen.getAllByText(/for this run only/)).toHaveLength(1);
    expect(screen.queryByText(/No secure store|No system keychain/)).toBeNull();
  });

  it('names the empty fields without calling main', () => {
    render(<SignIn />);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(screen.getByText('Enter your e-mail address.')).toBeTruthy();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(emailField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(emailField());
    expect(sessionCalls()).toEqual([]);

    fireEvent.change(emailField(), { target: { value: 'someone@clinic.test' } });
    fireEvent.submit(emailField().closest('form')!);
    expect(screen.queryByText('Enter your e-mail address.')).toBeNull();
    expect(screen.getByText('Enter your password.')).toBeTruthy();
    expect(document.activeElement).toBe(passwordField());
    expect(sessionCalls()).toEqual([]);
  });

  it('says plainly when the e-mail and password do not match, and clears the password', async () => {
    render(<SignIn />);
    const demo = core.appInfo().sandbox!.demo;
    fireEvent.change(emailField(), { target: { value: demo.email } });
    fireEvent.change(passwordField(), { target: { value: 'not-the-password' } });
    fireEvent.submit(emailField().closest('form')!);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('That e-mail and password do not match an account.');
    expect(sessionCalls()).toEqual(['session:signIn']);
    expect(emailField()).toHaveProperty('value', demo.email);
    expect(passwordField()).toHaveProperty('value', '');
    await waitFor(() => expect(document.activeElement).toBe(passwordField()));
    expect(screen.getByRole('button', { name: 'Sign in' })).toHaveProperty('disabled', false);
    expect(core.session.state().signedIn).toBe(false);
  });

  it('explains why the last session ended', () => {
    act(() => {
      core.emit('session:changed', { signedIn: false, user: null, endedBecause: 'expired' });
    });
    const { unmount } = render(<SignIn />);
    expect(
      screen.getByText(
        'Your session expired. Sign in again — your recordings are kept and will be sent after you sign in.',
      ),
    ).toBeTruthy();
    unmount();
    act(() => {
      core.emit('session:changed', { signedIn: false, user: null, endedBecause: 'revoked' });
    });
    render(<SignIn />);
    expect(screen.getByText(/You were signed out for safety because your sign-in was used elsewhere/)).toBeTruthy();
    act(() => {
      core.emit('session:changed', { signedIn: false, user: null, endedBecause: null });
    });
    expect(screen.queryByText(/signed out for safety/)).toBeNull();
  });

  it('says when the service cannot be reached, and keeps what was typed', async () => {
    // A real unreachable service: the sandbox off, every address on a closed loopback port.
    const closed = 'http://127.0.0.1:9';
    await core.appSettings.update({
      useSandbox: false,
      serviceUrls: { agentsUrl: closed, scribeUrl: closed, agentsApiUrl: closed },
    });
    await useSession.getState().load();
    try {
      render(<SignIn />);
      expect(screen.queryByRole('button', { name: 'Use the demo account' })).toBeNull();
      fireEvent.change(emailField(), { target: { value: 'vet@clinic.test' } });
      fireEvent.change(passwordField(), { target: { value: 'secret' } });
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      const alert = await screen.findByRole('alert', {}, { timeout: 10_000 });
      expect(alert.textContent).toContain('The service cannot be reached. Check the network connection and try again.');
      // Main's own account of the failure stays visible as the detail, in words.
      expect(alert.querySelector('.sign-in-detail')?.textContent).toBe(
        'Nothing answers at 127.0.0.1:9 (connection refused): the address may be wrong, or the service is down.',
      );
      expect(passwordField()).toHaveProperty('value', 'secret');
      await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Sign in' })));

      // The way back: Settings cannot be opened signed out, so this screen offers the sandbox.
      expect(screen.getByText(`Signing in to: ${closed}`)).toBeTruthy();
      fireEvent.click(screen.getByRole('button', { name: 'Change service' }));
      const sandbox = screen.getByRole('button', { name: 'Built-in sandbox (demo, no real notes)' });
      expect(sandbox.getAttribute('aria-pressed')).toBe('false');
      fireEvent.click(sandbox);
      await screen.findByRole('button', { name: 'Use the demo account' }, { timeout: 10_000 });
      expect(core.settings.get().useSandbox).toBe(true);
      expect(
        screen.getByRole('button', { name: 'Built-in sandbox (demo, no real notes)' }).getAttribute('aria-pressed'),
      ).toBe('true');
    } finally {
      cleanup();
      if (!core.settings.get().useSandbox) await core.appSettings.update({ useSandbox: true });
      await useSession.getState().load();
    }
  }, 20_000);

  it('says the sandbox once, and shows the three services only on "Change service"', async () => {
    render(<SignIn />);
    await screen.findByText('Signing in to: Built-in sandbox (demo)');
    const text = document.body.textContent ?? '';
    expect(text.match(/not for real patients/gi)).toHaveLength(1);
    expect(text.match(/example notes/gi)).toHaveLength(1);
    expect(screen.getAllByRole('note', { name: 'Sandbox service' })).toHaveLength(1);
    expect(screen.queryByRole('group', { name: 'Service' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Other addresses' })).toBeNull();

    const change = screen.getByRole('button', { name: 'Change service' });
    expect(change.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(change);
    expect(change.getAttribute('aria-expanded')).toBe('true');
    const group = screen.getByRole('group', { name: 'Service' });
    expect(
      within(group)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(["PupPilot (the clinic's account)", '✓ Built-in sandbox (demo, no real notes)', 'Other addresses']);
    fireEvent.click(change);
    expect(screen.queryByRole('group', { name: 'Service' })).toBeNull();
  });

  it('signs in with the demo account the button fills in', async () => {
    render(<SignIn />);
    const demo = core.appInfo().sandbox!.demo;
    fireEvent.click(screen.getByRole('button', { name: 'Use the demo account' }));
    expect(emailField()).toHaveProperty('value', demo.email);
    expect(passwordField()).toHaveProperty('value', demo.password);
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const waiting = screen.getByRole('button', { name: 'Signing in…' });
    expect(waiting).toHaveProperty('disabled', true);
    await waitFor(() => expect(core.session.state().signedIn).toBe(true));
    await waitFor(() => expect(useSession.getState().session.signedIn).toBe(true));
    expect(useSession.getState().session.user?.email).toBe(demo.email);
  });

  it('chooses the service in one step, without signing in: PupPilot, other addresses, the sandbox', async () => {
    const published = () => screen.getByRole('button', { name: "PupPilot (the clinic's account)" });
    const sandbox = () => screen.getByRole('button', { name: 'Built-in sandbox (demo, no real notes)' });
    const other = () => screen.getByRole('button', { name: 'Other addresses' });
    try {
      render(<SignIn />);
      fireEvent.click(screen.getByRole('button', { name: 'Change service' }));
      expect(sandbox().getAttribute('aria-pressed')).toBe('true');
      expect(screen.getByRole('group', { name: 'Service' })).toBeTruthy();

      fireEvent.click(published());
      await waitFor(() => expect(published().getAttribute('aria-pressed')).toBe('true'), { timeout: 10_000 });
      expect(core.settings.get()).toMatchObject({ useSandbox: false, serviceUrls: PUBLISHED_SERVICE_URLS });
      expect(screen.getByText('Signing in to: PupPilot')).toBeTruthy();
      // The demo account belongs to the sandbox only.
      await waitFor(() => expect(screen.queryByRole('button', { name: 'Use the demo account' })).toBeNull());
      expect(core.session.state().signedIn).toBe(false);
      expect(channels()).not.toContain('session:signIn');

      fireEvent.click(other());
      const form = screen.getByRole('form', { name: 'Other addresses' });
      const signInAddress = screen.getByLabelText('Sign-in address');
      // The spec's names are a small hint beside each field, not the label.
      expect(document.getElementById(signInAddress.getAttribute('aria-describedby')!)!.textContent).toContain(
        'agents_url',
      );
      fireEvent.change(signInAddress, { target: { value: 'http://agents.example.com' } });
      fireEvent.change(screen.getByLabelText('Scribe address'), { target: { value: 'https://scribe.example.com' } });
      fireEvent.change(screen.getByLabelText('Clinical agents address'), {
        target: { value: 'https://agents-api.example.com' },
      });
      fireEvent.submit(form);
      const refusal = await screen.findByRole('alert');
      expect(refusal.textContent).toBe(
        'The service was not changed. Sign-in address must be an https:// address (http:// only for localhost).',
      );
      expect(signInAddress.getAttribute('aria-invalid')).toBe('true');
      expect(core.settings.get().serviceUrls).toEqual(PUBLISHED_SERVICE_URLS);

      fireEvent.change(signInAddress, { target: { value: 'https://agents.example.com' } });
      fireEvent.click(screen.getByRole('button', { name: 'Use these addresses' }));
      await waitFor(() => expect(core.settings.get().serviceUrls.agentsUrl).toBe('https://agents.example.com'));
      await screen.findByText('Signing in to: https://agents.example.com');
      expect(other().getAttribute('aria-pressed')).toBe('true');
      expect(screen.queryByRole('form', { name: 'Other addresses' })).toBeNull();

      fireEvent.click(sandbox());
      await screen.findByRole('button', { name: 'Use the demo account' }, { timeout: 10_000 });
      expect(core.settings.get().useSandbox).toBe(true);
    } finally {
      cleanup();
      if (!core.settings.get().useSandbox) await core.appSettings.update({ useSandbox: true });
      await useSession.getState().load();
    }
  }, 30_000);

  it('knows the published hosts as the shared settings declare them', () => {
    expect(PUBLISHED_URLS).toEqual(PUBLISHED_SERVICE_URLS);
    expect(
      serviceKind({
        useSandbox: false,
        serviceUrls: { ...PUBLISHED_SERVICE_URLS, agentsUrl: 'https://agents.puppilot.co/' },
      }),
    ).toBe('published');
    expect(
      serviceKind({
        useSandbox: false,
        serviceUrls: { ...PUBLISHED_SERVICE_URLS, scribeUrl: 'https://scribe.example.com' },
      }),
    ).toBe('other');
    expect(serviceKind({ useSandbox: true, serviceUrls: PUBLISHED_SERVICE_URLS })).toBe('sandbox');
  });
});
