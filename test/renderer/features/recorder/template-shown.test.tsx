// The template a consult is scribed with is said beside Start and Stop, where the vet looks, with
// Change one click away: the one used last is offered first, and a vet must see it before it
// goes out again on the wrong kind of visit. On the real core and its embedded sandbox, with the
// browser's microphone and recorder stood in for (jsdom has none).
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { recorderWindow, whenRecording, type RecorderModules } from './support.ts';

let m: RecorderModules;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ stop, m } = await recorderWindow());
}, 30_000);

afterEach(() => cleanup());

afterAll(() => stop());

const templateField = () => screen.getByRole<HTMLSelectElement>('combobox', { name: 'Template' });
const named = (name: string) => m.useTemplates.getState().items.find((t) => t.name === name)!.id;

describe('the template beside Start and Stop', () => {
  it('names the template chosen on Start and on Stop, and Change takes the keyboard to the field', async () => {
    render(<m.RecorderView />);
    await waitFor(() => expect(m.useTemplates.getState().items.length).toBeGreaterThan(1));
    fireEvent.change(templateField(), { target: { value: '' } });
    // None chosen: said too, since the consult then waits for one after Stop.
    expect(
      screen.getByRole('button', { name: 'Start recording', description: 'Template: none chosen yet' }),
    ).toBeTruthy();

    fireEvent.change(templateField(), { target: { value: named('SOAP') } });
    expect(screen.getByRole('button', { name: 'Start recording', description: 'Template: SOAP' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Change' }));
    expect(document.activeElement).toBe(templateField());

    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    await whenRecording();
    expect(screen.getByRole('button', { name: 'Stop recording', description: 'Template: SOAP' })).toBeTruthy();
    // Changed while recording: the line follows.
    const other = m.useTemplates.getState().items.find((t) => t.name !== 'SOAP')!;
    fireEvent.change(templateField(), { target: { value: other.id } });
    expect(screen.getByRole('button', { name: 'Stop recording', description: `Template: ${other.name}` })).toBeTruthy();
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' }, { timeout: 10_000 });
  }, 30_000);

  it('a recording kept going through Switch user still names its own template, not an empty form', async () => {
    const { api } = await import('../../../../src/renderer/src/api.ts');
    const { useSession } = await import('../../../../src/renderer/src/stores/session.ts');
    await useSession.getState().load();
    render(<m.RecorderView />);
    await waitFor(() => expect(m.useTemplates.getState().items.length).toBeGreaterThan(1));
    fireEvent.change(templateField(), { target: { value: named('SOAP') } });
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    await whenRecording();
    // Switch user, "Keep recording": the recording goes on, as its vet's, with SOAP in main.
    await act(async () => {
      await api.session.switchUser();
    });
    expect(await api.session.get()).toMatchObject({ signedIn: false, switched: true });
    // The window has heard of it: the form was handed over.
    await waitFor(() => expect(useSession.getState().session.signedIn).toBe(false));
    expect(screen.getByRole('button', { name: 'Stop recording', description: 'Template: SOAP' })).toBeTruthy();
    // No one is signed in to list the templates: no field to change it, and no Change.
    expect(screen.queryByRole('combobox', { name: 'Template' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change' })).toBeNull();
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' }, { timeout: 10_000 });
  }, 30_000);
});
