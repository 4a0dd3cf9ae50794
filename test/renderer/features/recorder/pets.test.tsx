// Several pets in one visit, in the Record view and the note: "Add a patient" while recording,
// a pet removed before Stop sends nothing, and at Stop each pet left gets a consult of its own
// from the same recording, with one tab each above the note and "with …" in the list. On the
// real core and its embedded sandbox (real HTTP), with the browser's microphone and recorder
// stood in for (jsdom has none).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type * as NoteViewModule from '../../../../src/renderer/src/features/note/note-view.tsx';
import type * as ListModule from '../../../../src/renderer/src/features/consult-list/consult-row.tsx';
import type * as NavStoreModule from '../../../../src/renderer/src/stores/nav.ts';
import { chooseSoap, recorderWindow, sessionsCreated, whenRecording, type RecorderModules } from './support.ts';

type Modules = RecorderModules & typeof NoteViewModule & typeof ListModule & typeof NavStoreModule;

let core: AppCore;
let m: Modules;
let stop: () => Promise<void>;

beforeAll(async () => {
  let recorder: RecorderModules;
  ({ core, stop, m: recorder } = await recorderWindow());
  m = {
    ...recorder,
    ...(await import('../../../../src/renderer/src/features/note/note-view.tsx')),
    ...(await import('../../../../src/renderer/src/features/consult-list/consult-row.tsx')),
    ...(await import('../../../../src/renderer/src/stores/nav.ts')),
  };
}, 30_000);

afterEach(() => cleanup());

afterAll(() => stop());

describe('several pets in one visit', () => {
  it('adds and removes patients while recording; at Stop each patient left is its own consult, with a tab each', async () => {
    const view = render(<m.RecorderView />);
    await chooseSoap();
    fireEvent.change(screen.getByRole('textbox', { name: "Patient's name" }), { target: { value: 'Bella' } });
    const before = sessionsCreated(core);

    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();

    // Two more patients while recording; the second is removed before Stop.
    fireEvent.click(screen.getByRole('button', { name: 'Add a patient' }));
    // The cursor goes into the new patient's name.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: "Patient 2's name" })));
    fireEvent.change(screen.getByRole('textbox', { name: "Patient 2's name" }), { target: { value: 'Mango' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a patient' }));
    fireEvent.change(screen.getByRole('textbox', { name: "Patient 3's name" }), { target: { value: 'Pip' } });
    expect(m.useRecorder.getState().pets).toEqual(['Mango', 'Pip']);
    // Kept with the recording a moment after the typing stops, in case the app ends before Stop.
    await waitFor(() => expect(core.recordings.peek(id)?.pets).toEqual(['Mango', 'Pip']), { timeout: 3000 });
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    // Pip removed just before Stop: main still has Pip, yet Pip is not sent (and with every
    // other pet removed, see below, the visit is one pet's).
    fireEvent.click(screen.getByRole('button', { name: 'Remove patient 3 (Pip)' }));
    expect(screen.queryByRole('textbox', { name: "Patient 3's name" })).toBeNull();
    expect(m.useRecorder.getState().pets).toEqual(['Mango']);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add a patient' })));
    expect(core.recordings.peek(id)?.pets).toEqual(['Mango', 'Pip']);

    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    // The fields are the next visit's: no other patient left over. The card names each pet.
    expect(screen.queryByRole('textbox', { name: "Patient 2's name" })).toBeNull();
    const notes = await screen.findByRole('list', { name: 'Notes of this visit' });
    expect(
      within(notes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringMatching(/Bella/), expect.stringMatching(/Mango/)]);
    const visit = core.cache.all().filter((c) => c.recording.visitId === id);
    expect(visit.map((c) => c.recording.patientName).sort()).toEqual(['Bella', 'Mango']);
    const mango = visit.find((c) => c.recording.patientName === 'Mango')!.recording.id;
    await waitFor(() => expect(sessionsCreated(core)).toBe(before + 2), { timeout: 10_000 });
    view.unmount();

    // The note: one tab per pet, the open one marked; the other tab opens its own consult.
    await m.useConsults.getState().load();
    render(<m.NoteView id={id} />);
    const tabs = within(await screen.findByRole('navigation', { name: 'Pets seen in this visit' }));
    expect(tabs.getAllByRole('button').map((b) => b.querySelector('.pet-tab-name')?.textContent)).toEqual([
      'Bella',
      'Mango',
    ]);
    expect(tabs.getByRole('button', { name: /^Bella/ }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(tabs.getByRole('button', { name: /^Mango/ }));
    expect(m.useNav.getState().view).toEqual({ name: 'note', id: mango });
    cleanup();

    // In the list, each pet says who else was seen.
    const bellaInfo = m.useConsults.getState().byId[id]!;
    render(
      <ul>
        <m.ConsultRow consult={bellaInfo} />
      </ul>,
    );
    expect(screen.getByRole('heading', { level: 3 }).textContent).toBe('Bella · with Mango');
  }, 40_000);

  it('a visit stopped without a template: Send to be scribed sends every pet with the template chosen then', async () => {
    render(<m.RecorderView />);
    // No template this time (the one used last is offered first: the vet takes it away).
    await waitFor(() => expect(m.useRecorder.getState().templateId).not.toBeNull());
    fireEvent.change(screen.getByRole('combobox', { name: 'Template' }), { target: { value: '' } });
    expect(m.useRecorder.getState().templateId).toBeNull();
    fireEvent.change(screen.getByRole('textbox', { name: "Patient's name" }), { target: { value: 'Tiger' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add a patient' }));
    fireEvent.change(screen.getByRole('textbox', { name: "Patient 2's name" }), { target: { value: 'Smudge' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Send to be scribed' });
    const visit = () => core.cache.all().filter((c) => c.recording.visitId === id);
    expect(visit().map((c) => [c.recording.patientName, c.job])).toEqual(
      expect.arrayContaining([
        ['Tiger', null],
        ['Smudge', null],
      ]),
    );
    const soap = m.useTemplates.getState().items.find((t) => t.name === 'SOAP')!;
    fireEvent.change(screen.getByRole('combobox', { name: 'Template' }), { target: { value: soap.id } });
    fireEvent.click(screen.getByRole('button', { name: 'Send to be scribed' }));
    await waitFor(() => expect(visit().every((c) => c.job?.templateId === soap.id)).toBe(true), { timeout: 5000 });
    expect(visit()).toHaveLength(2);
  }, 30_000);

  it('every other pet removed before Stop: the recording is one pet’s, though main had heard of the others', async () => {
    render(<m.RecorderView />);
    fireEvent.change(screen.getByRole('textbox', { name: "Patient's name" }), { target: { value: 'Rex' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    fireEvent.click(screen.getByRole('button', { name: 'Add a patient' }));
    fireEvent.change(screen.getByRole('textbox', { name: "Patient 2's name" }), { target: { value: 'Pip' } });
    await waitFor(() => expect(core.recordings.peek(id)?.pets).toEqual(['Pip']), { timeout: 3000 });
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    fireEvent.click(screen.getByRole('button', { name: 'Remove patient 2 (Pip)' }));
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    expect(core.cache.consult(id)?.recording.visitId ?? null).toBeNull();
    expect(core.cache.all().filter((c) => c.recording.patientName === 'Pip')).toEqual([]);
  }, 30_000);
});

describe('the Record card of a visit with two pets', () => {
  it('has one Copy per pet with a note, named by the pet, and says which pet has no note yet', async () => {
    const { api } = await import('../../../../src/renderer/src/api.ts');
    const { recordedAudio } = await import('../../support/recorded-consult.ts');
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (t: string) => void copied.push(t) },
    });
    // Milo and Otis in one recording; only Milo is sent, so only Milo has a note.
    const { id } = await api.recording.start({ mimeType: recordedAudio.mimeType, patientName: 'Milo' });
    for (const [seq, data] of recordedAudio.chunks.entries())
      await api.recording.chunk({ id, seq, data, elapsedMs: (seq + 1) * 1000 });
    await api.recording.stop({ id, durationMs: 5000, pets: ['Otis'] });
    const otis = core.cache.all().find((c) => c.recording.visitId === id && c.recording.id !== id)!.recording.id;
    const templateId = (await api.templates.list({ page: 1 })).items[0]!.id;
    await api.consults.submit({ id, templateId });
    await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('completed'), { timeout: 15_000 });
    await m.useConsults.getState().load();
    m.useRecorder.setState({
      status: 'stopped',
      result: { id, title: 'Milo', durationMs: 5000, sent: true, interruption: null, needsName: false },
    });

    render(<m.RecorderView />);
    await screen.findByRole('heading', { name: 'Note ready' });
    // No Copy that does not say whose note it copies.
    expect(screen.queryByRole('button', { name: 'Copy note' })).toBeNull();
    const notes = within(screen.getByRole('list', { name: 'Notes of this visit' }));
    expect(notes.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Copy Milo's note/),
      expect.stringMatching(/^Otis: note not ready/),
    ]);
    fireEvent.click(notes.getByRole('button', { name: "Copy Milo's note" }));
    await notes.findByText(/^Copied/);
    expect(copied).toHaveLength(1);
    expect(copied[0]).toContain('Milo');

    // Otis's note once it is written: a Copy of its own.
    await act(async () => {
      await api.consults.submit({ id: otis, templateId });
    });
    await waitFor(() => expect(core.pipeline.info(otis)?.state).toBe('completed'), { timeout: 15_000 });
    await notes.findByRole('button', { name: "Copy Otis's note" }, { timeout: 5000 });
    expect(screen.queryByText(/note not ready/)).toBeNull();
    fireEvent.click(notes.getByRole('button', { name: "Copy Otis's note" }));
    await waitFor(() => expect(copied).toHaveLength(2));
    expect(copied[1]).toContain('Otis');
  }, 45_000);
});
