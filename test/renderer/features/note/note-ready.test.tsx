// A note that becomes ready while the vet is on another view, on the real core and its sandbox:
// a toast names the patient and opens that note, and the Consults entry counts the new note;
// opening Consults counts it as seen. A note that becomes ready while the vet looks at the list,
// or at that very note, says nothing more; Escape dismisses the toast.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { App } from '../../../../src/renderer/src/app.tsx';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { windowWithEngine } from '../../support/window.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { api } from '../../../../src/renderer/src/api.ts';

describe('a note ready while the vet is elsewhere', () => {
  let core: AppCore;
  let templateId: string;

  beforeAll(async () => {
    ({ core } = await windowWithEngine({ signIn: true, scribeSeconds: 0.3 }));
    templateId = await firstTemplateId();
  }, 30_000);
  afterEach(cleanup);
  afterAll(async () => {
    await core.stop();
  });

  const consultFor = (patientName: string) => recordConsult({ patientName, templateId });

  /** Records a consult and waits for its note: its id. */
  async function noteFor(patientName: string): Promise<string> {
    const id = await consultFor(patientName);
    await waitFor(() => expect(core.cache.consult(id)?.job?.state).toBe('completed'), { timeout: 15_000 });
    return id;
  }

  /** Asks for the consult's discharge instructions, a further document, as its note's view does. */
  async function askForDischarge(id: string): Promise<void> {
    const discharge = (await api.templates.list({ page: 1 })).items.find((t) => t.name === 'Discharge instructions')!;
    await api.consults.addDocument({ id, templateId: discharge.id, templateName: discharge.name });
  }

  it('toasts the patient and counts the note on Consults until Consults is opened', async () => {
    render(<App />);
    const differentials = await screen.findByRole('button', { name: /^Differentials/ });
    fireEvent.click(differentials);
    await consultFor('Biscuit');
    expect(
      await screen.findByRole('button', { name: 'Note ready: Biscuit — Open note' }, { timeout: 15_000 }),
    ).toBeTruthy();
    const consults = screen.getByRole('button', { name: /^Consults/ });
    await waitFor(() => expect(consults.textContent).toMatch(/1$/));
    expect(screen.getByLabelText('1 new note')).toBeTruthy();
    await act(async () => fireEvent.click(consults));
    await waitFor(() => expect(screen.queryByLabelText(/new note/)).toBeNull());
  }, 30_000);

  it('says nothing more while the vet is on the Consults list', async () => {
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: /^Consults/ }));
    await consultFor('Mango');
    await waitFor(
      () =>
        expect(Object.values(core.cache.all()).find((c) => c.recording.patientName === 'Mango')?.job?.state).toBe(
          'completed',
        ),
      { timeout: 15_000 },
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByText(/Note ready: Mango/)).toBeNull();
    expect(screen.queryByLabelText(/new note/)).toBeNull();
  }, 30_000);

  it('a further document of a consult is toasted as itself', async () => {
    const id = await noteFor('Pepper');
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: /^Differentials/ }));
    await askForDischarge(id);
    expect(
      await screen.findByRole(
        'button',
        { name: 'Discharge instructions ready: Pepper — Open note' },
        { timeout: 15_000 },
      ),
    ).toBeTruthy();
  }, 30_000);

  it('the toast opens that note, and is gone once the note is on screen', async () => {
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: /^Differentials/ }));
    await consultFor('Juniper');
    const toast = await screen.findByRole('button', { name: 'Note ready: Juniper — Open note' }, { timeout: 15_000 });
    await act(async () => fireEvent.click(toast));
    const id = core.cache.all().find((c) => c.recording.patientName === 'Juniper')!.recording.id;
    expect(useNav.getState().view).toEqual({ name: 'note', id });
    await waitFor(() => expect(screen.queryByRole('button', { name: /Juniper — Open note/ })).toBeNull());
  }, 30_000);

  it("a click on the desktop notification opens that note in the window, while it is still this account's", async () => {
    render(<App />);
    fireEvent.click(await screen.findByRole('button', { name: /^Differentials/ }));
    const id = await noteFor('Nutmeg');
    // What main does for a click on the notification: the engine names the consult to the window.
    await act(async () => void core.openConsult(id));
    await waitFor(() => expect(useNav.getState().view).toEqual({ name: 'note', id }));
    expect(await screen.findByRole('heading', { name: /Nutmeg/ })).toBeTruthy();
  }, 30_000);

  it('no toast for the note the vet is reading; Escape dismisses another', async () => {
    render(<App />);
    const olive = await noteFor('Olive');
    await act(async () => useNav.getState().go({ name: 'note', id: olive }));
    await askForDischarge(olive);
    await consultFor('Rolo');
    const rolo = await screen.findByRole('button', { name: 'Note ready: Rolo — Open note' }, { timeout: 15_000 });
    await waitFor(
      () =>
        expect(
          core.cache
            .all()
            .find((c) => c.recording.id === olive)
            ?.job?.documents.at(-1)?.state,
        ).toBe('completed'),
      { timeout: 15_000 },
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(screen.queryByRole('button', { name: /Olive — Open note/ })).toBeNull();
    fireEvent.keyDown(rolo, { key: 'Escape' });
    expect(screen.queryByRole('button', { name: /Rolo — Open note/ })).toBeNull();
  }, 40_000);
});
