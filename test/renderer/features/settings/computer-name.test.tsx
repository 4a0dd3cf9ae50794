// Settings → Clinic relay → "This computer's name" against the real engine: empty, it says the
// other rooms read the host name; a name is saved (trimmed) and nothing else with it; a name the
// setting refuses is said on the field, which points to why, and nothing is saved.
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { SettingsView } from '../../../../src/renderer/src/features/settings/settings-view.tsx';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { useSettings } from '../../../../src/renderer/src/stores/settings.ts';
import { tidyWindowTests, windowWithEngine } from '../../support/window.ts';

let core: AppCore;

beforeAll(async () => {
  // 'vm' stands in for the computer's host name.
  ({ core } = await windowWithEngine({ signIn: true, core: { relay: { computerName: 'vm' } } }));
  await useSession.getState().load();
  await useSettings.getState().load();
}, 30_000);

tidyWindowTests(() => ({ core }));

const section = () => screen.getByRole('region', { name: 'Clinic relay' });
const field = () => within(section()).getByLabelText("This computer's name") as HTMLInputElement;

async function saveName(name: string) {
  await act(async () => {
    fireEvent.change(field(), { target: { value: name } });
    fireEvent.click(within(field().closest('form')!).getByRole('button', { name: 'Save' }));
    await new Promise((r) => setTimeout(r, 50));
  });
}

async function untilSaid(text: string) {
  for (const end = Date.now() + 10_000; !section().textContent?.includes(text);) {
    if (Date.now() > end) throw new Error(`not said: ${text}; said: ${section().textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 50)));
  }
}

describe("This computer's name in Settings", () => {
  it('shows the host name while none is given, saves a name alone, and says on the field why a bad one was not saved', async () => {
    render(<SettingsView />);
    await screen.findByRole('region', { name: 'Clinic relay' });
    expect(field().value).toBe('');
    expect(field().placeholder).toBe('vm');
    expect(section().textContent).toContain('Empty, the other rooms read this computer\'s host name, "vm".');

    const before = core.settings.get();
    await saveName('  Exam room 1  ');
    await untilSaid('Saved. The other rooms read edits made here as "Edited on Exam room 1".');
    expect(core.settings.get()).toEqual({ ...before, computerName: 'Exam room 1' });
    expect(field().value).toBe('Exam room 1');

    await saveName('Exam room 1 beside the kennels and the x-ray room');
    await untilSaid("The computer's name was not changed.");
    expect(section().textContent).toContain('must be at most 40 characters');
    // The refusal is on the field: marked invalid, and it points to the sentence that says why.
    expect(field().getAttribute('aria-invalid')).toBe('true');
    const why = document.getElementById(field().getAttribute('aria-describedby')!.split(' ').at(-1)!);
    expect(why?.textContent).toContain('must be at most 40 characters');
    expect(core.settings.get().computerName).toBe('Exam room 1');

    await saveName('');
    await untilSaid('Saved. The other rooms read edits made here under its host name, "vm".');
    expect(core.settings.get()).toEqual(before);
  });
});
