// The next vet at the exam-room PC, against the real engine: what the vet who left saw, typed
// or was told is not on the screen for the next one, and an answer that arrives late for the
// vet who left is not shown to the next. The window's bridge here can hold chosen answers on
// their way to the window, as a busy window would, while the test switches user.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import type { EventPayloads } from '../../src/shared/ipc.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { ANSWER_FOR_ANOTHER_VET } from '../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT, DEMO_ACCOUNT, OTHER_ACCOUNT } from '../../src/sandbox/state.ts';
import { ApiCallError } from '../../src/shared/ipc-client.ts';
import type { BridgeApi, InvokeChannel } from '../../src/shared/ipc.ts';
import { recordThrough } from '../support/core.ts';
import { windowWithEngine } from './support/window.ts';
import { examRoomThatRecordedBella } from './support/exam-room.ts';
import * as clinic from '../../src/renderer/src/stores/clinic.ts';
import * as notifications from '../../src/renderer/src/stores/notifications.ts';
import * as noteReady from '../../src/renderer/src/stores/note-ready.ts';
import * as nav from '../../src/renderer/src/stores/nav.ts';
import * as settings from '../../src/renderer/src/stores/settings.ts';
import * as consults from '../../src/renderer/src/stores/consults.ts';
import { ClinicList } from '../../src/renderer/src/features/clinic/clinic-list.tsx';
import { Toasts } from '../../src/renderer/src/components/toasts.tsx';
import { SettingsView } from '../../src/renderer/src/features/settings/settings-view.tsx';
import { TemplatePicker } from '../../src/renderer/src/components/template-picker.tsx';
import { ConsultChat } from '../../src/renderer/src/features/chat/consult-chat.tsx';
import { ClinicNoteView } from '../../src/renderer/src/features/clinic/clinic-note-view.tsx';
import { useSession } from '../../src/renderer/src/stores/session.ts';

let core: AppCore;
let elsewhere: AppCore<Sandbox>;

/** Answers of these channels wait here on their way to the window, once each, until let go. */
const holdOnce = new Set<InvokeChannel>();
const held: (() => void)[] = [];
/** Each call the window made, with who was signed in at the engine as it was made, and whether it was answered. */
const calls: { channel: InvokeChannel; user: string | null; answered: boolean }[] = [];

beforeAll(async () => {
  const installed = await windowWithEngine({ signIn: true });
  core = installed.core;
  const real = installed.bridge;
  (window as unknown as { bridge: BridgeApi }).bridge = {
    ...real,
    invoke: async (channel: InvokeChannel, input?: unknown) => {
      const call = { channel, user: core.session.state().user?.id ?? null, answered: false };
      calls.push(call);
      const answer = await real.invoke(channel, input as never);
      call.answered = true;
      if (holdOnce.delete(channel)) await new Promise<void>((resolve) => held.push(resolve));
      return answer;
    },
  } as BridgeApi;
  // Another exam room of the demo clinic records Bella: the clinic's list of the demo vet has her.
  elsewhere = await examRoomThatRecordedBella(core);
  await useSession.getState().load();
}, 60_000);
afterEach(cleanup);
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await elsewhere.stop();
  await core.stop();
});

const handlers = () => createHandlers(core);

/** Switch user at the engine, then the next vet signs in. */
async function switchTo(account: { email: string; password: string }): Promise<string> {
  await act(async () => {
    await handlers()['session:switchUser'](undefined as never);
    await core.session.signIn(account.email, account.password);
  });
  return core.session.state().user!.id;
}

const names = (view: { consults: { patientName: string | null }[] } | null) =>
  (view?.consults ?? []).map((c) => c.patientName);

describe("the clinic's list across Switch user", () => {
  it("drops the last vet's late answer and reads the next vet's own list, and offers Refresh on an empty list", async () => {
    const demo = core.session.state().user!.id;
    clinic.refreshOncePerSignIn(demo);
    await waitFor(() => expect(names(clinic.useClinic.getState().view)).toContain('Bella'));

    // The demo vet reads the list again; its answer is on its way when the vet switches user.
    holdOnce.add('clinic:refresh');
    const late = clinic.useClinic
      .getState()
      .refresh()
      .catch(() => undefined);
    await waitFor(() => expect(held).toHaveLength(1));
    const other = await switchTo(OTHER_ACCOUNT);
    const reads = () => calls.filter((c) => c.channel === 'clinic:refresh' && c.user === other);
    await waitFor(() => expect(reads().map((c) => c.answered)).toEqual([true]));
    for (const release of held.splice(0)) release();
    await late;
    await waitFor(() => expect(clinic.useClinic.getState().refreshing).toBe(false));
    expect(clinic.useClinic.getState().refreshedFor).toBe(other);
    expect(names(clinic.useClinic.getState().view)).toEqual([]);

    // The other clinic has none from elsewhere yet: Refresh is there all the same.
    render(<ClinicList filter={{ words: '', day: '', state: 'all' }} />);
    const section = await screen.findByRole('region', { name: 'The clinic’s other consults' });
    expect(within(section).getByText('The service lists none recorded elsewhere.')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(reads()).toHaveLength(2));
  });
});

/** A note of this patient ready, as main says it. */
function ready(id: string, patientName: string) {
  act(() =>
    noteReady.noteReady({ recording: { id, patientName }, job: null } as unknown as EventPayloads['note:ready']),
  );
}

function toastTexts(): string[] {
  const region = screen.getByRole('region', { name: 'Messages' });
  return [...region.querySelectorAll('.toast')].map((t) => (t.textContent ?? '').replace('×', '').trim());
}

describe('toasts', () => {
  it('every toast of the vet who left goes at Switch user, and a refusal that lands late is not shown', async () => {
    await switchTo(DEMO_ACCOUNT);
    act(() => nav.useNav.getState().go({ name: 'record' }));
    render(<Toasts />);
    ready('luna-1', 'Luna');
    act(() => notifications.useNotifications.getState().fail(new Error('The disk is full.'), 'Could not send Milo'));
    expect(toastTexts().sort()).toEqual(['Could not send Milo: The disk is full.', 'Note ready: Luna — Open note']);

    await switchTo(COLLEAGUE_ACCOUNT);
    expect(toastTexts()).toEqual([]);
    expect(noteReady.useNoteReady.getState().unseen).toEqual([]);
    // The answer to a call the vet who left made, refused because they left.
    act(() =>
      notifications.useNotifications
        .getState()
        .fail(
          new ApiCallError({ code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET }),
          'Could not load the templates',
        ),
    );
    expect(toastTexts()).toEqual([]);
  });

  it("a note's toast closes by itself and an error stays; three at most, the newest first", () => {
    render(<Toasts />);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const fail = (what: string) =>
        act(() => notifications.useNotifications.getState().fail(new Error('No network.'), what));
      fail('Could not rename Rex');
      ready('bella-1', 'Bella');
      fail('Could not delete Max');
      fail('Could not copy the note');
      expect(toastTexts()).toEqual([
        'Could not copy the note: No network.',
        'Could not delete Max: No network.',
        'Note ready: Bella — Open note',
      ]);
      act(() => vi.advanceTimersByTime(noteReady.READY_TOAST_MS));
      expect(toastTexts()).toEqual([
        'Could not copy the note: No network.',
        'Could not delete Max: No network.',
        'Could not rename Rex: No network.',
      ]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('Settings left open across Switch user', () => {
  it("shows the next vet's clinic as read again at their sign-in, not the last one's, and no stale error", async () => {
    await switchTo(DEMO_ACCOUNT);
    const h = handlers();
    expect((await h['settings:update']({ retentionDays: 30 })).ok).toBe(true);
    expect((await h['org:setNotificationEmail']({ email: 'front-desk@demo.test' })).ok).toBe(true);
    await act(() => settings.useSettings.getState().load());
    render(<SettingsView />);
    const retention = () =>
      (screen.getByRole('combobox', { name: 'Keep recordings after the note is ready' }) as HTMLSelectElement).value;
    const email = () => (screen.getByRole('textbox', { name: 'Notification email' }) as HTMLInputElement).value;
    await waitFor(() => expect(email()).toBe('front-desk@demo.test'));
    expect(retention()).toBe('30');

    // The settings read once more for the demo vet; the answer is on its way at the switch.
    holdOnce.add('settings:get');
    const late = settings.useSettings.getState().load();
    await waitFor(() => expect(held).toHaveLength(1));
    // The vet switches user (a recording going on keeps the window); the template list is
    // opened before the next vet, a vet of another clinic, signs in.
    await act(async () => {
      await h['session:switchUser'](undefined as never);
    });
    render(<TemplatePicker value={null} onChange={() => undefined} />);
    // No one signed in asks for no templates: no "You are signed out" to outlive the switch.
    expect(screen.getByRole('combobox', { name: 'Template' })).toBeTruthy();
    expect(screen.queryByText(/^Could not load the templates:/)).toBeNull();
    await act(async () => {
      await core.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    });
    await waitFor(() => expect(screen.getByText(/^The service has no notification address for/)).toBeTruthy());
    await act(async () => {
      for (const release of held.splice(0)) release();
      await late;
    });
    expect(email()).toBe('');
    expect(retention()).toBe('7');
    await waitFor(() => expect(screen.queryByText('Loading templates…')).toBeNull());
    expect(screen.getByRole('combobox', { name: 'Template' }).querySelectorAll('option').length).toBeGreaterThan(1);
    expect(screen.queryAllByRole('alert').map((a) => a.textContent)).toEqual([]);
  });
});

describe('the chat box under a note', () => {
  it('holds what the vet typed for that vet alone: not for a colleague after Switch user, and theirs again when they are back', async () => {
    await switchTo(DEMO_ACCOUNT);
    const box = () => screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Your question about this consult' });
    // A note of the clinic's from elsewhere: every vet of the clinic may open it.
    render(<ConsultChat id="scribe:shared-note" from="clinic" />);
    fireEvent.change(box(), { target: { value: 'Is the limp from the hip?' } });

    // Left open through the switch (a recording going on keeps the window), then opened again.
    await switchTo(COLLEAGUE_ACCOUNT);
    expect(box().value).toBe('');
    cleanup();
    render(<ConsultChat id="scribe:shared-note" from="clinic" />);
    expect(box().value).toBe('');

    cleanup();
    await switchTo(DEMO_ACCOUNT);
    render(<ConsultChat id="scribe:shared-note" from="clinic" />);
    expect(box().value).toBe('Is the limp from the hip?');
  });
});

describe("this computer's consults across Switch user", () => {
  it("forgets the last vet's list at the switch and drops a list read for them that arrives late", async () => {
    await switchTo(DEMO_ACCOUNT);
    const id = await recordThrough(handlers(), 'Pepper');
    await act(() => consults.useConsults.getState().load());
    expect(Object.keys(consults.useConsults.getState().byId)).toContain(id);

    // The demo vet's list is read again; its answer is on its way at the switch.
    holdOnce.add('consults:list');
    const late = consults.useConsults.getState().load();
    await waitFor(() => expect(held).toHaveLength(1));
    await switchTo(OTHER_ACCOUNT);
    expect(consults.useConsults.getState().loaded).toBe(false);
    expect(Object.keys(consults.useConsults.getState().byId)).toEqual([]);
    await act(() => consults.useConsults.getState().load());
    await act(async () => {
      for (const release of held.splice(0)) release();
      await late;
    });
    expect(consults.useConsults.getState().loaded).toBe(true);
    expect(Object.keys(consults.useConsults.getState().byId)).toEqual([]);
  });
});

describe("a note of the clinic's left open across Switch user", () => {
  it('is read again for the next vet: a vet of another clinic is not shown it', async () => {
    await switchTo(DEMO_ACCOUNT);
    const list = await handlers()['clinic:refresh'](undefined as never);
    if (!list.ok) throw new Error(list.error.message);
    // Her note: a row of its own, or offered on her visit's row where the service does not link them.
    const bella = list.data.consults.flatMap((c) => [c, ...(c.candidates ?? [])]).find((c) => c.scribeId !== null)!;
    render(<ClinicNoteView noteKey={bella.key} />);
    await screen.findByRole('button', { name: 'Copy note' });

    await switchTo(OTHER_ACCOUNT);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Copy note' })).toBeNull());
    expect(screen.getByRole('alert').textContent).not.toBe('');
  });
});
