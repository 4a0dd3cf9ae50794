// The note's Provet bar against the real engine and the sandbox's Provet double, signed in through
// Provet's own page (support/provet-browser.ts): nothing on a note before Provet is set up or the
// consult is linked; the linked visit's patient and time; Send held while the editor has unsaved
// changes; a send that puts the note into the patient's record once and says since when and by
// whom; an edit after it offering "Update in Provet", which changes the same note; a patient not
// checked in who waits, followed by the engine's `pims:note` once the visit is opened; a
// finalized visit's refusal said in one sentence; and Send held, with its reason, once the vet
// signed out of Provet.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { api } from '../../../../src/renderer/src/api.ts';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { usePims } from '../../../../src/renderer/src/stores/pims.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import { provetBrowser } from '../../support/provet-browser.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { tidyWindowTests, windowWithEngine, type WindowCall } from '../../support/window.ts';

// The double's seeded appointments of the demo vet (src/sandbox/provet/data.ts): Bella at 09:00,
// checked in; Luna at 09:30, not checked in; Rocky at 08:00, whose consultation is finalized.
const BELLA = { appointment: '301', patient: 201, time: '09:00' };
const LUNA = { appointment: '302', patient: 202 };
const ROCKY = { appointment: '304' };
const MAX = { appointment: '303' };

const browser = provetBrowser();
let core: AppCore;
let calls: WindowCall[];
let provet: Sandbox['provet'];
const ids: Record<'bella' | 'luna' | 'rocky' | 'max', string> = { bella: '', luna: '', rocky: '', max: '' };

beforeAll(async () => {
  ({ core, calls } = await windowWithEngine({
    signIn: true,
    core: { openBrowser: (url) => browser.open(url), pims: { recheckMs: 300 } },
  }));
  provet = (core.embeddedSandbox as Sandbox).provet;
  const templateId = await firstTemplateId();
  ids.bella = await recordConsult({ patientName: 'Bella', description: 'limping', templateId });
  ids.luna = await recordConsult({ patientName: 'Luna', description: 'vomiting', templateId });
  ids.rocky = await recordConsult({ patientName: 'Rocky', description: 'ears', templateId });
  ids.max = await recordConsult({ patientName: 'Max', description: 'vaccinations', templateId });
  await waitFor(
    () => {
      for (const id of Object.values(ids)) expect(core.pipeline.info(id)?.state).toBe('completed');
    },
    { timeout: 20_000 },
  );
}, 40_000);

tidyWindowTests(() => ({ core, calls }));

const bar = () => screen.getByRole('group', { name: 'Provet record' });
const findBar = () => screen.findByRole('group', { name: 'Provet record' }, { timeout: 10_000 });

async function renderNote(id: string) {
  render(<NoteView id={id} />);
  await screen.findByRole('region', { name: 'Note' }, { timeout: 10_000 });
}

/** Chooses an item of the note's "More" menu as a vet does. */
function more(name: string) {
  fireEvent.click(screen.getByRole('button', { name: 'More' }));
  fireEvent.click(screen.getByRole('button', { name }));
}

describe('the note’s Provet bar', () => {
  it('is not there before Provet is set up, nor on a consult not linked to an appointment', async () => {
    await renderNote(ids.bella);
    await waitFor(() => expect(usePims.getState().notes[ids.bella]).toBeDefined());
    expect(usePims.getState().status?.name).toBeNull();
    expect(screen.queryByRole('group', { name: 'Provet record' })).toBeNull();
    cleanup();

    // Signed in to the sandbox's Provet through its page, as Settings does.
    const { sandbox } = await api.pims.status();
    await api.pims.signIn({ address: sandbox!.address, clientId: sandbox!.clientId });
    await usePims.getState().load();
    expect(usePims.getState().status?.name).toBe('Provet');
    await renderNote(ids.bella);
    await waitFor(() => expect(calls.some((c) => c.channel === 'pims:noteState')).toBe(true));
    await waitFor(() => expect(usePims.getState().notes[ids.bella]?.linked).toBeNull());
    expect(screen.queryByRole('group', { name: 'Provet record' })).toBeNull();
  });

  it('names the linked visit’s patient and time, and holds Send while the editor has unsaved changes', async () => {
    await api.pims.link({ id: ids.bella, appointmentId: BELLA.appointment });
    await renderNote(ids.bella);
    await findBar();
    expect(
      within(bar())
        .getByText(/^Provet:/)
        .closest('p')?.textContent,
    ).toMatch(new RegExp(`^Provet: Bella, the ${timeOf(BELLA.time)} appointment$`));
    expect(within(bar()).getByRole('status').textContent).toBe('Not sent to Provet yet.');
    const send = within(bar()).getByRole('button', { name: 'Send to Provet' });
    expect(send.getAttribute('aria-disabled')).toBe('false');

    more('Edit note');
    const box = (await screen.findAllByRole('textbox')).find((b) => b.closest('.note-sections'))!;
    fireEvent.change(box, { target: { value: `${(box as HTMLTextAreaElement).value} Not saved yet.` } });
    const held = within(bar()).getByRole('button', { name: 'Send to Provet' });
    expect(held.getAttribute('aria-disabled')).toBe('true');
    const why = document.getElementById(held.getAttribute('aria-describedby')!);
    expect(why?.textContent).toBe('Save or discard your changes first: the note as saved is what goes to Provet.');
    // Still reachable by keyboard, and pressing it sends nothing.
    held.focus();
    expect(document.activeElement).toBe(held);
    fireEvent.click(held);
    expect(calls.some((c) => c.channel === 'pims:send')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(() =>
      expect(within(bar()).getByRole('button', { name: 'Send to Provet' }).getAttribute('aria-disabled')).toBe('false'),
    );
    expect(provet.notes()).toHaveLength(0);
  });

  it('sends the note into the patient’s record once, and says since when and by whom', async () => {
    await renderNote(ids.bella);
    await findBar();
    fireEvent.click(within(bar()).getByRole('button', { name: 'Send to Provet' }));
    await waitFor(() => expect(within(bar()).getByRole('status').textContent).toMatch(/^In Provet since /), {
      timeout: 10_000,
    });
    const state = usePims.getState().notes[ids.bella]!;
    expect(state.state).toBe('sent');
    expect(within(bar()).getByRole('status').textContent).toBe(
      `In Provet since ${timeOfIso(state.sentAt!)} (${state.sentBy}).`,
    );
    // Sent with the recording vet's own sign-in, named as the app names them.
    expect(state.sentBy).toBe('Dr. Demo Vet');
    // Nothing more to send: no button until the note changes.
    expect(within(bar()).queryByRole('button')).toBeNull();
    const notes = provet.notes().filter((n) => n.patient === BELLA.patient);
    expect(notes).toHaveLength(1);
    const firstLine = core.pipeline
      .note(ids.bella)
      .note!.split('\n')
      .find((l) => l.trim() !== '' && !l.startsWith('#'))!
      .trim();
    expect(JSON.stringify(notes[0])).toContain(firstLine.slice(0, 30));
  });

  it('offers "Update in Provet" after an edit is saved, which changes the same note in the record', async () => {
    await renderNote(ids.bella);
    await findBar();
    more('Edit note');
    const box = (await screen.findAllByRole('textbox')).find((b) => b.closest('.note-sections'))!;
    fireEvent.change(box, { target: { value: 'Walks sound after rest; recheck in two weeks.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const update = await within(bar()).findByRole('button', { name: 'Update in Provet' }, { timeout: 10_000 });
    expect(within(bar()).getByRole('status').textContent).toMatch(
      /^In Provet since .+\)\. Edited since: Provet has the earlier version\.$/,
    );
    // Once the editor has closed on the saved text.
    await waitFor(() => expect(update.getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(update);
    await waitFor(() => expect(within(bar()).getByRole('status').textContent).not.toMatch(/Edited since|Sending/), {
      timeout: 10_000,
    });
    const state = usePims.getState().notes[ids.bella]!;
    expect(state).toMatchObject({ state: 'sent', changedSinceSent: false });
    expect(within(bar()).getByRole('status').textContent).toBe(
      `In Provet since ${timeOfIso(state.sentAt!)} (${state.sentBy}).`,
    );
    expect(within(bar()).queryByRole('button', { name: 'Update in Provet' })).toBeNull();
    const notes = provet.notes().filter((n) => n.patient === BELLA.patient);
    expect(notes).toHaveLength(1);
    expect(JSON.stringify(notes[0])).toContain('Walks sound after rest; recheck in two weeks.');
  });

  it('says a patient not checked in waits, and follows the engine’s word once the visit is opened', async () => {
    await api.pims.link({ id: ids.luna, appointmentId: LUNA.appointment });
    await renderNote(ids.luna);
    await findBar();
    fireEvent.click(within(bar()).getByRole('button', { name: 'Send to Provet' }));
    await waitFor(
      () =>
        expect(within(bar()).getByRole('status').textContent).toBe(
          'Waiting for check-in in Provet: the note goes in when the visit is opened.',
        ),
      { timeout: 10_000 },
    );
    expect(provet.notes().filter((n) => n.patient === LUNA.patient)).toHaveLength(0);

    expect(provet.checkIn(Number(LUNA.appointment))).not.toBeNull();
    // No call of the window's: the engine's `pims:note` brings it.
    calls.length = 0;
    await waitFor(() => expect(within(bar()).getByRole('status').textContent).toMatch(/^In Provet since /), {
      timeout: 15_000,
    });
    expect(calls.filter((c) => c.channel === 'pims:send')).toHaveLength(0);
    expect(provet.notes().filter((n) => n.patient === LUNA.patient)).toHaveLength(1);
  });

  it('says in one sentence why a finalized visit refused the note, and offers to send it again', async () => {
    await api.pims.link({ id: ids.rocky, appointmentId: ROCKY.appointment });
    await renderNote(ids.rocky);
    await findBar();
    fireEvent.click(within(bar()).getByRole('button', { name: 'Send to Provet' }));
    const alert = await within(bar()).findByRole('alert', {}, { timeout: 10_000 });
    expect(alert.textContent).toMatch(/^[A-Z][^\n]*[.?!]$/);
    expect(within(bar()).getByRole('button', { name: 'Send to Provet' })).toBeTruthy();
    expect(provet.notes().filter((n) => n.patient === 205)).toHaveLength(0);
  });

  it('after signing out of Provet, holds Send and says why without alarm', async () => {
    await api.pims.link({ id: ids.max, appointmentId: MAX.appointment });
    await api.pims.signOut();
    await usePims.getState().load();
    await renderNote(ids.max);
    await findBar();
    const held = within(bar()).getByRole('button', { name: 'Send to Provet' });
    expect(held.getAttribute('aria-disabled')).toBe('true');
    expect(within(bar()).getByText('Sign in to Provet in Settings to send this note.')).toBeTruthy();
    // A standing reason, not news: read where it stands, not announced as an alert.
    expect(within(bar()).queryByRole('alert')).toBeNull();
    fireEvent.click(held);
    expect(calls.some((c) => c.channel === 'pims:send')).toBe(false);
  });
});

/** "09:00" as this computer writes a time of day. */
function timeOf(hhmm: string): string {
  const [h, m] = hhmm.split(':').map(Number);
  const d = new Date();
  d.setHours(h!, m!, 0, 0);
  return timeOfIso(d.toISOString());
}

function timeOfIso(iso: string): string {
  return new Intl.DateTimeFormat([], { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}
