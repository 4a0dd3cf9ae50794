// Start records at once, before the patient's name: from the button and from the tray's and the
// shortcut's commands. A consult stopped without the name waits for it, says so, and nothing
// reaches the service; the name typed after Stop sends it. On the real core and its embedded
// sandbox (real HTTP), with the browser's microphone and recorder stood in for (jsdom has none).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { api } from '../../../../src/renderer/src/api.ts';
import { chooseSoap, recorderWindow, sessionsCreated, whenRecording, type RecorderModules } from './support.ts';

let core: AppCore;
let m: RecorderModules;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ core, stop, m } = await recorderWindow());
}, 30_000);

afterEach(() => cleanup());

afterAll(() => stop());

const nameField = () => screen.getByRole<HTMLInputElement>('textbox', { name: "Patient's name" });

describe('Start before the name', () => {
  it('the button records with no name; Stop asks for it; the name typed after Stop sends the consult; the card follows it to Note ready', async () => {
    render(<m.RecorderView />);
    await chooseSoap();
    const before = sessionsCreated(core);
    expect(nameField().value).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    expect(core.cache.consult(id)?.recording).toMatchObject({ state: 'recording', patientName: null });
    // The name field stays open while recording.
    expect(nameField().disabled).toBe(false);
    await act(() => new Promise((r) => setTimeout(r, 1200)));

    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    // Stop keeps the recording and asks for the name, with the cursor in the field.
    const ask = await screen.findByText("Type the patient's name, then press Enter to send the consult.");
    expect(ask.closest('[role="alert"]') ?? ask).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(nameField()));
    const card = within(screen.getByRole('region', { name: "Waiting for the patient's name — type it to send" }));
    expect(card.getByText(/^No patient name · 0:0\d recorded$/)).toBeTruthy();
    expect(core.cache.consult(id)).toMatchObject({ recording: { state: 'finished', patientName: null }, job: null });
    expect(sessionsCreated(core)).toBe(before);

    // Typed after Stop, sent with Enter: the consult goes at once with the template chosen.
    fireEvent.change(nameField(), { target: { value: ' Pepper ' } });
    fireEvent.keyDown(nameField(), { key: 'Enter' });
    await waitFor(() => expect(core.cache.consult(id)?.job).not.toBeNull());
    expect(core.cache.consult(id)?.recording.patientName).toBe('Pepper');
    // The fields are the next patient's now.
    await waitFor(() => expect(nameField().value).toBe(''));
    const ready = await screen.findByRole('region', { name: 'Note ready' }, { timeout: 15_000 });
    expect(within(ready).getByText(/^Pepper · 0:0\d recorded$/)).toBeTruthy();
    expect(within(ready).getByRole('button', { name: 'Open note' })).toBeTruthy();
    expect(within(ready).getByRole('button', { name: 'Copy note' })).toBeTruthy();
    expect(sessionsCreated(core)).toBe(before + 1);
  }, 30_000);

  it("the tray's and the shortcut's start record with no name; a name never typed: the consult waits, says so, and nothing is sent", async () => {
    render(<m.RecorderView />);
    await chooseSoap();
    const before = sessionsCreated(core);
    // As main sends them from the tray and the global shortcut.
    act(() => core.emit('recorder:command', { action: 'toggle' }));
    const id = await whenRecording();
    expect(core.cache.consult(id)?.recording.patientName).toBeNull();
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    act(() => core.emit('recorder:command', { action: 'stop' }));
    await screen.findByText("Type the patient's name, then press Enter to send the consult.");
    await waitFor(() => expect(document.activeElement).toBe(nameField()));
    expect(screen.getByRole('region', { name: "Waiting for the patient's name — type it to send" })).toBeTruthy();

    // Leaving the empty field sends nothing; the consult waits, well past the engine's polls.
    fireEvent.blur(nameField());
    await act(() => new Promise((r) => setTimeout(r, 1500)));
    expect(core.cache.consult(id)).toMatchObject({ recording: { state: 'finished', patientName: null }, job: null });
    expect(sessionsCreated(core)).toBe(before);

    // The next consult starts with empty fields; the waiting one stays waiting.
    act(() => core.emit('recorder:command', { action: 'start' }));
    const next = await whenRecording();
    expect(next).not.toBe(id);
    fireEvent.change(nameField(), { target: { value: 'Biscuit' } });
    // Typed while recording: main has it a moment after the typing stops.
    await waitFor(() => expect(core.cache.consult(next)?.recording.patientName).toBe('Biscuit'), { timeout: 3000 });
    act(() => core.emit('recorder:command', { action: 'stop' }));
    await waitFor(() => expect(core.cache.consult(next)?.job).not.toBeNull());
    await waitFor(() => expect(sessionsCreated(core)).toBe(before + 1), { timeout: 5000 });
    expect(core.cache.consult(id)).toMatchObject({ recording: { patientName: null }, job: null });
  }, 30_000);

  it('a name given in Consults meanwhile: the Record view stops asking, and its fields are the next patient’s', async () => {
    render(<m.RecorderView />);
    // The last test's recording may still be stopping: its session was made while it recorded.
    fireEvent.click(await screen.findByRole('button', { name: 'Start recording' }, { timeout: 10_000 }));
    const id = await whenRecording();
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByText("Type the patient's name, then press Enter to send the consult.");
    expect(screen.getByRole('group', { name: 'Patient of the consult just recorded' })).toBeTruthy();

    // As the Consults view sends it.
    await act(async () => {
      await api.consults.update({ id, patientName: 'Mochi' });
    });
    await screen.findByRole('group', { name: 'Patient' });
    expect(screen.queryByText("Type the patient's name, then press Enter to send the consult.")).toBeNull();
    expect(screen.queryByRole('region', { name: "Waiting for the patient's name — type it to send" })).toBeNull();
    expect(screen.getByText(/^Mochi · 0:0\d recorded$/)).toBeTruthy();
    // What is typed now is the next patient's: Enter sends nothing to the consult just named.
    fireEvent.change(nameField(), { target: { value: 'Rex' } });
    fireEvent.keyDown(nameField(), { key: 'Enter' });
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(core.cache.consult(id)?.recording.patientName).toBe('Mochi');
    expect(nameField().value).toBe('Rex');
    m.useRecorder.setState({ patientName: '' });
  }, 30_000);
});
