// A note's unsaved edit in the window is the vet's who typed it, against the real engine: after
// Switch user, the colleague who opens the same note sees the note, not the leaving vet's text in
// the editor as "Your changes" (neither from main nor left on screen while a recording keeps the
// window up); the vet finds her edit again at her next sign-in, keys typed just before the switch
// included.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { windowWithEngine } from '../../support/window.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { App } from '../../../../src/renderer/src/app.tsx';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { useRecorder } from '../../../../src/renderer/src/stores/recorder.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { whenLeaving } from '../../../../src/renderer/src/stores/switch-user.ts';
import { api } from '../../../../src/renderer/src/api.ts';

const TYPED = 'Typed by the demo vet, not saved.';
const TYPED_LAST = `${TYPED} And a last line just before Switch user.`;

let core: AppCore;
let go: (view: { name: 'note'; id: string }) => void;
let setRecorder: (status: 'recording' | 'idle') => void;
let id: string;

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  go = (view) => act(() => useNav.getState().go(view));
  setRecorder = (status) => act(() => useRecorder.setState({ status }));
  await useSession.getState().load();
  id = await recordConsult({ patientName: 'Bella', templateId: await firstTemplateId() });
  await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('completed'), { timeout: 15_000 });
}, 30_000);

afterEach(() => cleanup());
afterAll(async () => {
  await core.stop();
});

const demo = () => core.appInfo().sandbox!.demo;

async function signIn(account: { email: string; password: string }) {
  await act(async () => {
    await core.session.signIn(account.email, account.password);
  });
  await screen.findByRole('navigation', { name: 'Main' });
}

/** Opens Bella's note and its editor, and types `text` into its second box. */
async function openAndType(text: string) {
  go({ name: 'note', id });
  fireEvent.click(await screen.findByRole('button', { name: 'More' }));
  fireEvent.click(screen.getByRole('button', { name: 'Edit note' }));
  await screen.findByRole('group', { name: 'Edit note' });
  type(text);
}

function type(text: string) {
  const boxes = screen.getAllByRole('textbox').filter((b) => b.closest('.note-sections'));
  fireEvent.change(boxes[1]!, { target: { value: text } });
}

/**
 * The note shown to read, not the editor, and none of the demo vet's words anywhere, once the
 * window's own question for a draft is answered (main answers a consult's drafts in order, so
 * it is answered before this one).
 */
async function expectNoteNotDraft() {
  await screen.findByRole('region', { name: 'Note' });
  const answer = await act(() => api.consults.draft({ id }));
  expect(screen.queryByRole('group', { name: 'Edit note' })).toBeNull();
  expect(screen.queryByText(/Your changes/)).toBeNull();
  expect(document.body.textContent).not.toContain(TYPED);
  for (const box of screen.queryAllByRole('textbox')) expect((box as HTMLTextAreaElement).value).not.toContain(TYPED);
  expect(answer).toBeNull();
}

describe("a note's unsaved edit across Switch user", () => {
  it('the colleague who opens the note next sees the note, not the leaving vet’s edit; she finds it, last keys included, when she signs back in', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    await openAndType(TYPED);
    // Kept in main as she types.
    await waitFor(async () => expect((await api.consults.draft({ id }))?.text).toContain(TYPED));
    // A last line, and Switch user at once, before the pause after typing.
    type(TYPED_LAST);
    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    await screen.findByRole('button', { name: 'Sign in' });

    await signIn(COLLEAGUE_ACCOUNT);
    go({ name: 'note', id });
    await expectNoteNotDraft();
    // Told whose, never what.
    expect(screen.getByText('Dr. Demo Vet has unsaved changes to this note; only they can see them.')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
    await screen.findByRole('button', { name: 'Sign in' });
    await signIn(demo());
    go({ name: 'note', id });
    const editor = await screen.findByRole('group', { name: 'Edit note' });
    expect(
      within(editor)
        .getAllByRole('textbox')
        .map((b) => (b as HTMLTextAreaElement).value),
    ).toContain(TYPED_LAST);
    expect(screen.getByText(/^Your changes from .+ were kept\./)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(async () => expect(await api.consults.draft({ id })).toBeNull());
  });

  it('with a recording going, the window stays up through the switch, and the editor on screen is not carried to the colleague', async () => {
    render(<App />);
    await screen.findByRole('navigation', { name: 'Main' });
    await openAndType(TYPED);
    await waitFor(async () => expect((await api.consults.draft({ id }))?.text).toContain(TYPED));
    setRecorder('recording');
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
      fireEvent.click(screen.getByRole('button', { name: 'Keep recording' }));
      await waitFor(() => expect(core.session.state().signedIn).toBe(false));
      expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
      expect(screen.queryByRole('group', { name: 'Edit note' })).toBeNull();

      await signIn(COLLEAGUE_ACCOUNT);
      await expectNoteNotDraft();
    } finally {
      setRecorder('idle');
    }
    await act(async () => {
      await core.session.signOut('switch');
    });
    await signIn(demo());
    expect((await api.consults.draft({ id }))?.text).toContain(TYPED);
  });

  it('Switch user is not held up by an edit to keep that the engine does not answer', async () => {
    const forget = whenLeaving(() => new Promise(() => {}));
    try {
      render(<App />);
      await screen.findByRole('navigation', { name: 'Main' });
      fireEvent.click(screen.getByRole('button', { name: 'Switch user' }));
      await waitFor(() => expect(core.session.state().signedIn).toBe(false), { timeout: 10_000 });
    } finally {
      forget();
    }
    await signIn(demo());
  });
});
