// The window's shell on the real engine: main's notices are shown above every view until the
// vet puts them away.
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import type { App as AppComponent } from '../../src/renderer/src/app.tsx';
import { installRealBridge } from './support/real-bridge.ts';

const KEYCHAIN = 'No system keychain is available, so your sign-in is kept in memory only.';
const RECOVERED = 'A recording left unfinished when the app closed was recovered.';

let core: AppCore;
let App: typeof AppComponent;

beforeAll(async () => {
  ({ core } = await installRealBridge({
    signIn: true,
    notices: [
      { level: 'warning', message: KEYCHAIN },
      { level: 'info', message: RECOVERED },
    ],
  }));
  ({ App } = await import('../../src/renderer/src/app.tsx'));
  const { useSession } = await import('../../src/renderer/src/stores/session.ts');
  await useSession.getState().load();
});

afterEach(() => cleanup());

afterAll(async () => {
  await core.stop();
});

describe('App shell', () => {
  it('shows main’s notices, each with its role, and hides only the one dismissed', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    const main = screen.getByRole('main');
    const noticeOf = (text: string) => within(main).getByText(text).closest<HTMLElement>('[role]')!;
    await within(main).findByText(KEYCHAIN);
    const warning = noticeOf(KEYCHAIN);
    expect(warning.getAttribute('role')).toBe('alert');
    expect(noticeOf(RECOVERED).getAttribute('role')).toBe('status');

    await act(async () => within(warning).getByRole('button', { name: 'Dismiss notice' }).click());
    await waitFor(() => expect(within(main).queryByText(KEYCHAIN)).toBeNull());
    expect(within(main).queryByText(RECOVERED)).not.toBeNull();
    // Another view keeps it dismissed.
    await act(async () => screen.getByRole('navigation', { name: 'Main' }).querySelector('button')?.click());
    expect(within(main).queryByText(KEYCHAIN)).toBeNull();
  });
});
