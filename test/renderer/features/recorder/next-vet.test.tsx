// The Record view through a Switch user, against the real engine: a recording the vet keeps
// going names its owner for whoever signs in next, and what a vet typed for the next patient,
// or the card of their last consult, is not there for the next vet.
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import type * as ViewModule from '../../../../src/renderer/src/features/recorder/recorder-view.tsx';
import type * as RecorderStoreModule from '../../../../src/renderer/src/stores/recorder.ts';
import { windowWithMicrophone } from '../../support/window.ts';
import { whenRecording } from './support.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';

let core: AppCore;
let m: typeof ViewModule & typeof RecorderStoreModule;
let stop: () => Promise<void>;

beforeAll(async () => {
  ({ core, stop } = await windowWithMicrophone({ signIn: true }));
  m = {
    ...(await import('../../../../src/renderer/src/features/recorder/recorder-view.tsx')),
    ...(await import('../../../../src/renderer/src/stores/recorder.ts')),
  };
  await useSession.getState().load();
}, 30_000);
afterEach(cleanup);
afterAll(() => stop());

/** Switch user at the engine ("Keep recording" leaves the recorder as it is), then the next vet signs in. */
async function switchTo(account: { email: string; password: string }): Promise<void> {
  await act(async () => {
    await createHandlers(core)['session:switchUser'](undefined as never);
    await core.session.signIn(account.email, account.password);
  });
}

const nameField = () => screen.getByRole<HTMLInputElement>('textbox', { name: "Patient's name" });

describe('the Record view through Switch user', () => {
  it('a recording kept going names its owner for the colleague; the fields and card of a vet who left are not the next vet’s', async () => {
    render(<m.RecorderView />);
    fireEvent.change(nameField(), { target: { value: 'Luna' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    await whenRecording();
    expect(screen.queryByText(/^Recording for/)).toBeNull();

    await switchTo(COLLEAGUE_ACCOUNT);
    expect(screen.getByText('Recording for Dr. Demo Vet')).toBeTruthy();
    // The patient typed is the recording's own, still.
    expect(nameField().value).toBe('Luna');
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    expect(screen.getByText('Recorded for Dr. Demo Vet')).toBeTruthy();
    expect(nameField().value).toBe('');

    // Typed by the colleague for their next patient, then they switch user: the next vet of
    // another clinic finds an empty form and no card of the colleague's last consult.
    fireEvent.change(nameField(), { target: { value: 'Milo' } });
    await switchTo(OTHER_ACCOUNT);
    expect(nameField().value).toBe('');
    expect(screen.queryByText(/for Dr\./)).toBeNull();
    expect(m.useRecorder.getState().result).toBeNull();
  }, 30_000);

  it('Keep recording, then Stop with no one signed in: no red error for a recording kept as its vet’s, and nothing of it for the next vet', async () => {
    render(<m.RecorderView />);
    fireEvent.change(nameField(), { target: { value: 'Bella' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    await whenRecording();
    const owner = core.session.state().user!.name;
    // Keep recording: the engine signs the vet out, the recording and its patient go on.
    await act(async () => {
      await createHandlers(core)['session:switchUser'](undefined as never);
    });
    expect(nameField().value).toBe('Bella');
    // Its details are its vet's to change (main refuses anyone else): shown, not offered to edit,
    // rather than refused after the typing with an error about another clinic.
    expect(nameField().readOnly).toBe(true);
    expect(
      screen.getByText(`Kept as ${owner}'s: they can change these details in Consults once signed in.`),
    ).toBeTruthy();
    fireEvent.change(nameField(), { target: { value: 'Bella B' } });
    await act(() => new Promise((r) => setTimeout(r, 1200)));
    expect(document.body.textContent).not.toMatch(/not saved/);
    expect(nameField().value).toBe('Bella');
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    // Stopped and kept as its vet's, sent with their own sign-in: not a failure.
    expect(document.body.textContent).not.toMatch(/could not be finished|belongs to the vet/);
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.getByText(`Recorded for ${owner}`)).toBeTruthy();
    expect(
      screen.getByText(`The recording is kept on this computer as ${owner}'s: they find it in their consults.`),
    ).toBeTruthy();
    expect(nameField().value).toBe('');

    await act(async () => {
      await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    });
    expect(document.body.textContent).not.toMatch(/could not be finished|belongs to the vet|Recorded for/);
    expect(nameField().value).toBe('');
    expect(m.useRecorder.getState()).toMatchObject({ status: 'idle', error: null, result: null, owner: null });
  }, 30_000);

  it('a recorder left in error (a start that failed) shows the next vet neither the error nor the patient typed', async () => {
    render(<m.RecorderView />);
    fireEvent.change(nameField(), { target: { value: 'Rex' } });
    act(() => m.useRecorder.setState({ status: 'error', error: 'The microphone could not be opened.' }));
    expect(screen.getByText('The microphone could not be opened.')).toBeTruthy();

    await switchTo(OTHER_ACCOUNT);
    expect(screen.queryByText('The microphone could not be opened.')).toBeNull();
    expect(nameField().value).toBe('');
    expect(m.useRecorder.getState()).toMatchObject({ status: 'idle', error: null });
  }, 30_000);
});
