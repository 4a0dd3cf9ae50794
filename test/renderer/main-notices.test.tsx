// Main's notices in the window's shell, on the real engine: each one line, put away with
// Dismiss; the keychain's (true at every start) stays away once dismissed, through a new window;
// after a Dismiss the cursor is on the control that came after the notice, not on the page.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { windowWithNotices } from './support/window.ts';
import { App } from '../../src/renderer/src/app.tsx';

const KEYCHAIN =
  'No system keychain is available, so your sign-in is kept in memory only: you will be asked to sign in again after the app restarts.';
const RECOVERED = 'A recording left unfinished when the app closed was recovered. Upload or discard it in Consults.';

let core: AppCore;

beforeAll(async () => {
  localStorage.clear();
  ({ core } = await windowWithNotices(KEYCHAIN, RECOVERED));
}, 30_000);

afterEach(() => cleanup());
afterAll(async () => {
  localStorage.clear();
  await core.stop();
});

const main = () => screen.getByRole('main');
const noticeOf = (text: string) => within(main()).getByText(text).closest<HTMLElement>('[role]')!;

describe('Main’s notices', () => {
  it('are one line each, the whole message kept for the pointer and for assistive technology', async () => {
    render(<App />);
    await within(await screen.findByRole('main')).findByText(KEYCHAIN);
    for (const text of [KEYCHAIN, RECOVERED]) {
      const notice = noticeOf(text);
      expect(notice.classList.contains('notice-line')).toBe(true);
      expect(within(notice).getByText(text).getAttribute('title')).toBe(text);
    }
  });

  it('after a Dismiss, the cursor is on the control that followed the notice', async () => {
    render(<App />);
    await within(await screen.findByRole('main')).findByText(KEYCHAIN);
    const after = within(noticeOf(RECOVERED)).getByRole('button', { name: 'Dismiss notice' });
    const dismiss = within(noticeOf(KEYCHAIN)).getByRole('button', { name: 'Dismiss notice' });
    dismiss.focus();
    await act(async () => fireEvent.click(dismiss));
    expect(within(main()).queryByText(KEYCHAIN)).toBeNull();
    expect(document.activeElement).toBe(after);
    expect(document.activeElement).not.toBe(document.body);
  });

  it('keeps the keychain’s notice away in a new window once dismissed; a notice of one event comes back', async () => {
    render(<App />);
    await within(await screen.findByRole('main')).findByText(RECOVERED);
    for (const text of [KEYCHAIN, RECOVERED]) {
      const notice = within(main()).queryByText(text)?.closest<HTMLElement>('[role]');
      if (notice)
        await act(async () => fireEvent.click(within(notice).getByRole('button', { name: 'Dismiss notice' })));
      expect(within(main()).queryByText(text)).toBeNull();
    }
    // A new window, as after a restart.
    cleanup();
    render(<App />);
    await within(await screen.findByRole('main')).findByText(RECOVERED);
    expect(within(main()).queryByText(KEYCHAIN)).toBeNull();
  });
});
