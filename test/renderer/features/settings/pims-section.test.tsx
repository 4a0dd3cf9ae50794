// Settings → Practice-management system against the real engine and the sandbox's Provet double:
// the sandbox's Provet offered filled in, the fields checked first, what Provet or the engine
// refuses said in one sentence with nothing kept, the wait while the vet signs in in the browser
// and its Cancel, a sign-in through Provet's own page (driven over real HTTP by the browser
// stand-in, support/provet-browser.ts) with who is signed in and Sign out, and a colleague at the
// same computer who has their own Provet sign-in, or none.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { SettingsView } from '../../../../src/renderer/src/features/settings/settings-view.tsx';
import { api } from '../../../../src/renderer/src/api.ts';
import { usePims } from '../../../../src/renderer/src/stores/pims.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { COLLEAGUE_ACCOUNT, DEMO_ACCOUNT, type Sandbox } from '../../../../src/sandbox/index.ts';
import { provetBrowser } from '../../support/provet-browser.ts';
import { tidyWindowTests, windowWithEngine, type WindowCall } from '../../support/window.ts';

const browser = provetBrowser();
let core: AppCore;
let calls: WindowCall[];
let provet: Sandbox['provet'];

beforeAll(async () => {
  ({ core, calls } = await windowWithEngine({
    signIn: true,
    core: { openBrowser: (url) => browser.open(url), pims: { signInTimeoutMs: 20_000 } },
  }));
  await useSession.getState().load();
  provet = (core.embeddedSandbox as Sandbox).provet;
}, 30_000);

tidyWindowTests(
  () => ({ core, calls }),
  () => (browser.mode = 'sign-in'),
);

const channels = () => calls.map((c) => c.channel);
const section = () => screen.getByRole('region', { name: 'Practice-management system' });
const address = () => within(section()).getByRole('textbox', { name: 'Provet address' }) as HTMLInputElement;
const clientId = () => within(section()).getByRole('textbox', { name: 'Client ID' }) as HTMLInputElement;
const signInButton = () => within(section()).getByRole('button', { name: 'Sign in to Provet' });

async function renderSection() {
  render(<SettingsView />);
  await screen.findByRole('region', { name: 'Practice-management system' });
  await within(section()).findByRole('textbox', { name: 'Provet address' });
}

function type(field: HTMLInputElement, value: string) {
  fireEvent.change(field, { target: { value } });
}

describe('Settings → Practice-management system', () => {
  it('offers the sandbox’s Provet filled in, says what connecting it does, and that each vet signs in', async () => {
    await renderSection();
    expect(address().value).toBe(provet.address);
    expect(clientId().value).toBe(provet.clientId);
    const text = section().textContent ?? '';
    expect(text).toContain('today’s appointments');
    expect(text).toContain('patient’s record');
    expect(text).toContain('Each vet signs in with their own Provet account');
    expect(signInButton()).toBeTruthy();
    expect(within(section()).queryByRole('button', { name: 'Sign out of Provet' })).toBeNull();
    expect(channels()).toContain('pims:status');
  });

  it('checks the fields before asking main: a missing client ID or an address without its instance is said next to it', async () => {
    await renderSection();
    type(clientId(), '  ');
    fireEvent.click(signInButton());
    expect(within(section()).getByText('Enter the client ID that Provet’s support gave the clinic.')).toBeTruthy();
    expect(clientId().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(clientId());

    type(clientId(), provet.clientId);
    type(address(), 'https://provetcloud.com');
    fireEvent.click(signInButton());
    expect(within(section()).getByText(/^The Provet address is the whole address/)).toBeTruthy();
    expect(document.activeElement).toBe(address());
    expect(channels()).not.toContain('pims:signIn');
    expect(browser.opened).toHaveLength(0);
  });

  it('says in one sentence under the fields why an address that is not a Provet instance was refused, and keeps nothing', async () => {
    await renderSection();
    type(address(), `${new URL(provet.address).origin}/not-provet/1`);
    fireEvent.click(signInButton());
    const alert = await within(section()).findByRole('alert', {}, { timeout: 10_000 });
    expectOneSentence(alert.textContent);
    expect(channels()).toContain('pims:signIn');
    expect(browser.opened).toHaveLength(0);
    expect(core.settings.get().pims).toBeNull();
    // What was typed stays, to be corrected.
    expect(address().value).toBe(`${new URL(provet.address).origin}/not-provet/1`);
  });

  it('says in one sentence why Provet refused the client ID, and keeps nothing', async () => {
    await renderSection();
    type(clientId(), 'not-a-registered-client');
    fireEvent.click(signInButton());
    const alert = await within(section()).findByRole('alert', {}, { timeout: 10_000 });
    expectOneSentence(alert.textContent);
    expect(core.settings.get().pims).toBeNull();
  });

  it('while the vet signs in on Provet’s page says so and offers Cancel, which ends the sign-in with no error', async () => {
    browser.mode = 'hold';
    await renderSection();
    fireEvent.click(signInButton());
    const waiting = await within(section()).findByText('Finish signing in on Provet’s page in your browser…');
    expect(waiting.getAttribute('role')).toBe('status');
    await waitFor(() => expect(browser.opened.at(-1)).toMatch(/\/oauth2\/authorize\/\?/));
    expect(signInButton().getAttribute('aria-disabled')).toBe('true');
    // The fields do not change under a sign-in on its way.
    expect(address().readOnly).toBe(true);

    fireEvent.click(within(section()).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(within(section()).queryByText(/Finish signing in/)).toBeNull(), { timeout: 10_000 });
    expect(channels()).toContain('pims:cancelSignIn');
    expect(within(section()).queryByRole('alert')).toBeNull();
    expect(signInButton().getAttribute('aria-disabled')).toBe('false');
    expect((await api.pims.status()).signedIn).toBeNull();
  });

  it('says so when the vet pressed Cancel on Provet’s own page', async () => {
    browser.mode = 'cancel';
    await renderSection();
    fireEvent.click(signInButton());
    const alert = await within(section()).findByRole('alert', {}, { timeout: 10_000 });
    expectOneSentence(alert.textContent);
    expect(core.settings.get().pims).toBeNull();
  });

  it('signs in through Provet’s page: names the vet signed in, keeps the setup, and signs out again', async () => {
    await renderSection();
    fireEvent.click(signInButton());
    const signedIn = await within(section()).findByText(/^Signed in to Provet as /, {}, { timeout: 15_000 });
    const status = await api.pims.status();
    expect(status.signedIn?.name).toMatch(/Hale/);
    expect(signedIn.textContent).toBe(`Signed in to Provet as ${status.signedIn!.name}.`);
    expect(core.settings.get().pims).toEqual({ kind: 'provet', address: provet.address, clientId: provet.clientId });
    // Changing the instance means signing out of this one first.
    expect(address().readOnly).toBe(true);
    expect(within(section()).getByText('Sign out of Provet to change the address or the client ID.')).toBeTruthy();

    fireEvent.click(within(section()).getByRole('button', { name: 'Sign out of Provet' }));
    await within(section()).findByRole('button', { name: 'Sign in to Provet' });
    expect(within(section()).queryByText(/^Signed in to Provet/)).toBeNull();
    expect(channels()).toContain('pims:signOut');
    expect((await api.pims.status()).signedIn).toBeNull();
    // The clinic's setup stays for the next sign-in.
    expect(address().value).toBe(provet.address);
    expect(address().readOnly).toBe(false);
  });

  it('shows a colleague at the same computer their own Provet sign-in, none, and the demo vet theirs again', async () => {
    await renderSection();
    fireEvent.click(signInButton());
    await within(section()).findByText(/^Signed in to Provet as /, {}, { timeout: 15_000 });
    cleanup();

    await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    await waitFor(() => expect(useSession.getState().session.user?.email).toBe(COLLEAGUE_ACCOUNT.email));
    // The window's store forgot the demo vet's sign-in and read the colleague's, before any view asked.
    await waitFor(() => expect(usePims.getState().status?.signedIn).toBeNull());
    expect(usePims.getState().status?.setup?.address).toBe(provet.address);
    await renderSection();
    await waitFor(() => expect(signInButton()).toBeTruthy());
    expect(within(section()).queryByText(/^Signed in to Provet/)).toBeNull();
    // The computer's setup is the clinic's: offered to the colleague as it was kept.
    expect(address().value).toBe(provet.address);
    cleanup();

    await core.session.signIn(DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
    await waitFor(() => expect(useSession.getState().session.user?.email).toBe(DEMO_ACCOUNT.email));
    await renderSection();
    await within(section()).findByText(/^Signed in to Provet as .*Hale/);
  });
});

/** One sentence, said plainly: no line breaks, no stack, a full stop (or question mark) at its end. */
function expectOneSentence(text: string | null) {
  expect(text ?? '').toMatch(/^[A-Z].*[.?!]$/);
  expect(text ?? '').not.toMatch(/\n|Error:|at \w+ \(/);
}
