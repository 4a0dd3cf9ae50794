// Settings as a vet meets it with the built-in sandbox in use, against the real engine: an
// address where nothing answers is tried before it is saved (the vet stays signed in, the old
// service stays), its field says why and takes the focus, the error goes once the sandbox is
// chosen again, and nothing the sandbox has no use for (the scribe sign-in's path, an "Unknown"
// webhook to set) nor a success colour for a missing address is shown.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { windowWithEngine, type WindowCall } from '../../support/window.ts';
import { closedPort } from '../../../support/http.ts';
import { SettingsView } from '../../../../src/renderer/src/features/settings/settings-view.tsx';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';

let core: AppCore;
let calls: WindowCall[];

beforeAll(async () => {
  ({ core, calls } = await windowWithEngine({ signIn: true }));
  await useSession.getState().load();
}, 30_000);

afterEach(() => {
  cleanup();
  calls.length = 0;
});

afterAll(async () => {
  await core.stop();
});

const section = (name: string) => screen.getByRole('region', { name });

async function renderLoaded() {
  render(<SettingsView />);
  await screen.findByRole('region', { name: 'Service' });
}

/** The text of the elements an input's aria-describedby names. */
function describedBy(input: HTMLElement): string {
  return (input.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

describe('the service, tried before it is saved', () => {
  it('keeps the sandbox and the sign-in when nothing answers at the new address, and marks that field', async () => {
    const port = await closedPort();
    const before = structuredClone(core.settings.get());
    await renderLoaded();
    const service = section('Service');
    fireEvent.click(within(service).getByRole('radio', { name: 'Other addresses' }));
    const dead = `http://127.0.0.1:${port}`;
    fireEvent.change(within(service).getByLabelText('Sign-in address'), { target: { value: dead } });
    fireEvent.change(within(service).getByLabelText('Scribe address'), { target: { value: dead } });
    fireEvent.change(within(service).getByLabelText('Clinical agents address'), { target: { value: dead } });
    fireEvent.click(within(service).getByRole('button', { name: 'Save and switch service' }));

    const signInUrl = within(service).getByLabelText('Sign-in address');
    await waitFor(() => expect(signInUrl.getAttribute('aria-invalid')).toBe('true'), { timeout: 15_000 });
    // Said beside the field it is about, and the field has the focus.
    expect(describedBy(signInUrl)).toContain(`Nothing answers at 127.0.0.1:${port}`);
    expect(document.activeElement).toBe(signInUrl);
    expect(within(service).getByLabelText('Scribe address').getAttribute('aria-invalid')).toBe('true');
    expect(within(service).getByRole('alert').textContent).toMatch(/not saved/);
    // Nothing saved, nobody signed out.
    expect(core.settings.get()).toEqual(before);
    expect(core.session.state().signedIn).toBe(true);
    expect(calls.map((c) => c.channel)).not.toContain('settings:update');

    // Back to the sandbox: the old error goes with the addresses it was about.
    fireEvent.click(within(service).getByRole('radio', { name: 'Built-in sandbox (demo, no real notes)' }));
    expect(within(service).queryByRole('alert')).toBeNull();
    expect(service.querySelector('[aria-invalid="true"]')).toBeNull();
    expect(service.textContent).not.toContain('Nothing answers');
  }, 30_000);

  it('marks the refused address, ties the reason to it and puts the focus on it, not in a list at the bottom', async () => {
    await renderLoaded();
    const service = section('Service');
    fireEvent.click(within(service).getByRole('radio', { name: 'Other addresses' }));
    fireEvent.change(within(service).getByLabelText('Sign-in address'), {
      target: { value: 'https://agents.example.com' },
    });
    fireEvent.change(within(service).getByLabelText('Scribe address'), {
      target: { value: 'http://scribe.example.com' },
    });
    fireEvent.change(within(service).getByLabelText('Clinical agents address'), {
      target: { value: 'https://agents-api.example.com' },
    });
    fireEvent.click(within(service).getByRole('button', { name: 'Save and switch service' }));
    const scribe = within(service).getByLabelText('Scribe address');
    await waitFor(() => expect(scribe.getAttribute('aria-invalid')).toBe('true'));
    expect(describedBy(scribe)).toContain('must be an https:// address (http:// only for localhost)');
    expect(document.activeElement).toBe(scribe);
    expect(within(service).getByLabelText('Sign-in address').getAttribute('aria-invalid')).toBeNull();
    expect(within(service).getByRole('alert').textContent).not.toContain('https://');
    expect(core.session.state().signedIn).toBe(true);
  });
});

describe('what the sandbox has no use for', () => {
  it('shows neither the scribe sign-in path nor an "Unknown" webhook to set while the sandbox is the service', async () => {
    await renderLoaded();
    expect(section('Service').textContent).not.toContain('/auth/login');
    const hook = section('Webhook');
    expect(hook.textContent).not.toContain('Unknown');
    expect(hook.textContent).not.toContain('set it to tell the service');
  });

  it('does not show a missing notification address in the colour of a success', async () => {
    expect((await core.organization.get()).emailNotification).toBeNull();
    await renderLoaded();
    const org = section('Organization');
    const status = await within(org).findByText(/^The service has no notification address for /);
    expect(status.className).not.toContain('settings-ok');
  });
});
