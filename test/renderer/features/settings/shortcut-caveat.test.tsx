// Settings' recording shortcut where the desktop may not pass a global shortcut on (a Linux
// Wayland session: main's shortcut port has a caveat, which app:info carries): the section
// says so plainly, names the tray icon and the window as the way to record, and never says the
// keys start recording. Elsewhere it says they do. Against the real engine, with a stand-in for
// Electron's globalShortcut that takes every key.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { WAYLAND_SHORTCUT_CAVEAT } from '../../../../src/shared/desktop.ts';
import { installRealBridge } from '../../support/real-bridge.ts';
import { ShortcutSection } from '../../../../src/renderer/src/features/settings/shortcut-section.tsx';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { useSettings } from '../../../../src/renderer/src/stores/settings.ts';

let core: AppCore;
let caveat: string | null = WAYLAND_SHORTCUT_CAVEAT;

beforeAll(async () => {
  ({ core } = await installRealBridge({ core: { shortcut: { apply: () => null, caveat: () => caveat } } }));
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  await core.stop();
});

async function renderSection() {
  await act(async () => {
    await useSession.getState().load();
    await useSettings.getState().load();
  });
  const settings = useSettings.getState().settings!;
  render(<ShortcutSection recordShortcut={settings.recordShortcut} desktop />);
  return screen.getByRole('region', { name: 'Recording shortcut' });
}

describe('the recording shortcut in Settings', () => {
  it('on a Wayland session: says the keys may not work, and that the tray icon and the window record', async () => {
    caveat = WAYLAND_SHORTCUT_CAVEAT;
    const section = await renderSection();
    expect(section.textContent).not.toMatch(/starts and stops recording, from any app/);
    expect(within(section).getByText(/is the recording shortcut, but it may not work here\./)).toBeTruthy();
    expect(within(section).getByText(WAYLAND_SHORTCUT_CAVEAT)).toBeTruthy();
    expect(WAYLAND_SHORTCUT_CAVEAT).toMatch(/from the tray icon or from this window/);
    // A change is saved without a claim that the new keys work.
    await act(async () => {
      fireEvent.click(within(section).getByRole('button', { name: 'Change shortcut…' }));
    });
    const field = within(section).getByLabelText('Press the new keys');
    await act(async () => {
      fireEvent.keyDown(field, { key: 'r', code: 'KeyR', ctrlKey: true, altKey: true });
    });
    expect(
      await within(section).findByText('Saved. Ctrl+Alt+R is the recording shortcut, if this desktop passes it on.'),
    ).toBeTruthy();
  });

  it('elsewhere: says the keys start and stop recording from any app, and nothing more', async () => {
    caveat = null;
    const section = await renderSection();
    expect(section.textContent).toMatch(/starts and stops recording, from any app\./);
    expect(section.textContent).not.toContain(WAYLAND_SHORTCUT_CAVEAT);
  });
});
