// "Today in Provet" on the Record view, against the real engine and the sandbox's Provet double
// over real HTTP: nothing without a practice-management system, a line to Settings when the vet
// is not signed in to it, the vet's own appointments with the colleagues' behind one button, and
// a pick that fills the patient's and the other pets' names and links the consult to the
// appointment once the recording has its id. The vet signs in to Provet without a browser: the
// engine's openBrowser port is given one that reads the double's sign-in page and posts its form
// as a browser would, then follows the redirect to the app's loopback address.
import { act, cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import { COLLEAGUE_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { PROVET_USERS, type Sandbox } from '../../../../src/sandbox/index.ts';
import { api } from '../../../../src/renderer/src/api.ts';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { usePims } from '../../../../src/renderer/src/stores/pims.ts';
import { useNotifications } from '../../../../src/renderer/src/stores/notifications.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { provetBrowser } from '../../support/provet-browser.ts';
import type { WindowCall } from '../../support/window.ts';
import { recorderWindow, whenRecording, type RecorderModules } from './support.ts';

let core: AppCore;
let m: RecorderModules;
let calls: WindowCall[];
let stop: () => Promise<void>;
let sandbox: Sandbox;
/** The vet's browser: signs in on the double's page as `browser.user` when the engine opens it. */
const browser = provetBrowser();

beforeAll(async () => {
  // Each wait crosses the engine and real HTTP to the double: room for a busy machine.
  configure({ asyncUtilTimeout: 5000 });
  ({ core, stop, m, calls } = await recorderWindow({
    // Not awaited by the engine's sign-in: a browser tab lives on its own.
    core: { openBrowser: (url) => browser.open(url) },
  }));
  sandbox = core.embeddedSandbox as Sandbox;
  await useSession.getState().load();
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  configure({ asyncUtilTimeout: 1000 });
  await stop();
});

/** Signs the vet in front in to the sandbox's Provet, as Settings would. */
async function signInToProvet(user = PROVET_USERS.demo): Promise<void> {
  browser.user = user;
  const status = await api.pims.status();
  const setup = status.setup ?? status.sandbox!;
  await act(() => api.pims.signIn({ address: setup.address, clientId: setup.clientId }));
}

const nameField = () => screen.getByRole<HTMLInputElement>('textbox', { name: "Patient's name" });
const linkCalls = () => calls.filter((c) => c.channel === 'pims:link');
const time = (hour: number, minute: number) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
/** The vet's own appointments, once listed. */
const yours = async () => within(await screen.findByRole('list', { name: 'Your appointments today' }));

describe('today in Provet', () => {
  it('shows nothing while this computer has no practice-management system', async () => {
    render(<m.RecorderView />);
    await waitFor(() => expect(usePims.getState().status).not.toBeNull());
    expect(usePims.getState().status!.setup).toBeNull();
    expect(screen.queryByRole('heading', { name: /^Today in/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Open Settings' })).toBeNull();
  });

  it('lists the vet’s own appointments with time, patients, species, complaint and check-in; the colleagues’ behind one button', async () => {
    await signInToProvet();
    render(<m.RecorderView />);
    await screen.findByRole('heading', { name: 'Today in Provet' });
    const own = await yours();
    const luna = own.getByRole('button', { name: `${time(9, 30)}, Luna (Cat), Vomiting since yesterday` });
    expect(luna.getAttribute('aria-pressed')).toBe('false');
    // Listed at once from main's copy; the fresh read follows as main's event.
    await waitFor(() => expect(m.useToday.getState().day?.refreshing).toBe(false));
    expect(screen.queryByText(/^Checking Provet for changes/)).toBeNull();
    expect(
      own.getByRole('button', { name: `${time(9, 0)}, Bella (Dog), Limping, left hind, checked in` }),
    ).toBeTruthy();
    expect(
      own.getByRole('button', { name: `${time(10, 0)}, Max (Dog), Milo (Cat), Annual vaccinations, checked in` }),
    ).toBeTruthy();
    // Only the vet's own, by start.
    const mine = m.useToday.getState().day!.appointments.filter((a) => a.mine);
    expect(own.getAllByRole('button')).toHaveLength(mine.length);
    expect(mine.map((a) => a.start)).toEqual([...mine.map((a) => a.start)].sort());
    expect(screen.queryByRole('button', { name: /Oscar/ })).toBeNull();

    const others = m.useToday.getState().day!.appointments.filter((a) => !a.mine);
    expect(others.length).toBeGreaterThan(0);
    const toggle = screen.getByRole('button', { name: `Colleagues' appointments (${others.length})` });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const colleagues = within(screen.getByRole('list', { name: "Colleagues' appointments today" }));
    // The vet booked for it is named after the rest when main knows the name.
    const oscar = new RegExp(`^${time(11, 30)}, Oscar \\(Dog\\), Itchy skin on the back(, Dr .+)?$`);
    expect(colleagues.getByRole('button', { name: oscar })).toBeTruthy();
    expect(colleagues.getAllByRole('button')).toHaveLength(others.length);
  });

  it('picking a two-pet visit fills both names and shows it; the recording is linked to it once, and typing over a name keeps the link', async () => {
    render(<m.RecorderView />);
    const visit = await screen.findByRole('button', { name: /^\d\d:\d\d, Max \(Dog\), Milo \(Cat\)/ });
    visit.focus();
    fireEvent.click(visit);
    expect(visit.getAttribute('aria-pressed')).toBe('true');
    // The keyboard stays on the list: the pets filled in do not take it away.
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(document.activeElement).toBe(visit);
    expect(nameField().value).toBe('Max');
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: "Patient 2's name" }).value).toBe('Milo');
    expect(screen.getByText(`For the ${time(10, 0)} appointment: Max, Milo`)).toBeTruthy();
    expect(linkCalls()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    await waitFor(() => expect(linkCalls()).toHaveLength(1));
    expect(linkCalls()[0]!.input).toEqual({ id, appointmentId: '303' });
    await waitFor(async () => expect((await api.pims.noteState({ id })).linked?.appointmentId).toBe('303'));
    // While it records, the appointment is changed by picking another, not cleared.
    expect(screen.queryByRole('button', { name: 'Clear the appointment' })).toBeNull();

    fireEvent.change(nameField(), { target: { value: 'Maximus' } });
    await waitFor(() => expect(core.recordings.peek(id)?.patientName).toBe('Maximus'));
    expect((await api.pims.noteState({ id })).linked?.appointmentId).toBe('303');
    expect(linkCalls()).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
    // The next consult is another patient's: no appointment, no names left over.
    expect(m.useRecorder.getState().appointment).toBeNull();
    expect(screen.queryByText(/appointment: Max, Milo/)).toBeNull();
    expect(nameField().value).toBe('');
    expect(linkCalls()).toHaveLength(1);
  }, 30_000);

  it('a pick cleared before Start links nothing; a pick during the recording fills the name and links at once', async () => {
    render(<m.RecorderView />);
    fireEvent.click(await screen.findByRole('button', { name: /^\d\d:\d\d, Bella \(Dog\)/ }));
    expect(nameField().value).toBe('Bella');
    fireEvent.click(screen.getByRole('button', { name: 'Clear the appointment' }));
    expect(screen.queryByText(/appointment: Bella/)).toBeNull();
    // The name stays as it was filled: only the appointment is forgotten.
    expect(nameField().value).toBe('Bella');
    const before = linkCalls().length;

    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    await act(() => new Promise((r) => setTimeout(r, 300)));
    expect(linkCalls()).toHaveLength(before);
    expect((await api.pims.noteState({ id })).linked).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: /^\d\d:\d\d, Luna \(Cat\)/ }));
    expect(nameField().value).toBe('Luna');
    await waitFor(() => expect(linkCalls()).toHaveLength(before + 1));
    expect(linkCalls().at(-1)!.input).toEqual({ id, appointmentId: '302' });
    await waitFor(async () => expect((await api.pims.noteState({ id })).linked?.appointmentId).toBe('302'));
    await waitFor(() => expect(core.recordings.peek(id)?.patientName).toBe('Luna'));

    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
  }, 30_000);

  it('Refresh reads Provet again: a patient checked in meanwhile says so', async () => {
    render(<m.RecorderView />);
    (await yours()).getByRole('button', { name: `${time(9, 30)}, Luna (Cat), Vomiting since yesterday` });
    sandbox.provet.checkIn(302);
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await (
      await yours()
    ).findByRole('button', { name: `${time(9, 30)}, Luna (Cat), Vomiting since yesterday, checked in` });
    expect(calls.some((c) => c.channel === 'pims:refreshToday')).toBe(true);
  });

  it('a consult stopped without its name: picking an appointment names it and links it, and the fields are the next patient’s', async () => {
    render(<m.RecorderView />);
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    await act(() => new Promise((r) => setTimeout(r, 300)));
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('group', { name: 'Patient of the consult just recorded' });

    fireEvent.click(await screen.findByRole('button', { name: /^\d\d:\d\d, Bella \(Dog\)/ }));
    await waitFor(() => expect(core.cache.consult(id)?.recording.patientName).toBe('Bella'));
    expect(linkCalls().at(-1)!.input).toEqual({ id, appointmentId: '301' });
    expect((await api.pims.noteState({ id })).linked?.appointmentId).toBe('301');
    await screen.findByRole('group', { name: 'Patient' });
    await waitFor(() => expect(nameField().value).toBe(''));
    expect(m.useRecorder.getState().appointment).toBeNull();
  }, 30_000);

  it('a link Provet cannot make (signed out of it since the pick) is said, and the recording goes on', async () => {
    render(<m.RecorderView />);
    fireEvent.click(await screen.findByRole('button', { name: /^\d\d:\d\d, Luna \(Cat\)/ }));
    await act(() => api.pims.signOut());
    useNotifications.setState({ toasts: [] });
    fireEvent.click(screen.getByRole('button', { name: 'Start recording' }));
    const id = await whenRecording();
    await waitFor(() =>
      expect(useNotifications.getState().toasts.map((t) => t.message)).toEqual([
        expect.stringMatching(/^The consult was not linked to its appointment: .*Provet/),
      ]),
    );
    expect((await api.pims.noteState({ id })).linked).toBeNull();
    expect(m.useRecorder.getState().status).toBe('recording');
    fireEvent.click(screen.getByRole('button', { name: 'Stop recording' }));
    await screen.findByRole('button', { name: 'Start recording' });
  }, 30_000);

  it('Provet refusing the vet’s sign-in keeps the copy on screen and says why in one line', async () => {
    await act(() => api.pims.signOut());
    // Tokens that lapse at once, refresh and all: the next read is refused.
    const { provetAccessTtlSeconds, provetRefreshTtlSeconds } = sandbox.options;
    sandbox.options.provetAccessTtlSeconds = 1;
    sandbox.options.provetRefreshTtlSeconds = 1;
    try {
      await signInToProvet();
      render(<m.RecorderView />);
      await (await yours()).findByRole('button', { name: /Luna/ });
      await waitFor(() => expect(m.useToday.getState().day?.refreshing).toBe(false));
      await act(() => new Promise((r) => setTimeout(r, 1500)));
      fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
      await screen.findByText(/^Sign in to Provet again in Settings: shown as read at \d\d:\d\d( [AP]M)?\.$/);
      // The copy is still listed, and can still be picked.
      expect((await yours()).getByRole('button', { name: /Luna/ })).toBeTruthy();
    } finally {
      Object.assign(sandbox.options, { provetAccessTtlSeconds, provetRefreshTtlSeconds });
    }
  }, 30_000);

  it('signed out of Provet: one line points to Settings, and no list until the vet signs in again', async () => {
    await act(() => api.pims.signOut());
    render(<m.RecorderView />);
    const settings = await screen.findByRole('button', { name: 'Open Settings' });
    expect(screen.getByText(/^Sign in to Provet in Settings/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Your appointments today' })).toBeNull();
    fireEvent.click(settings);
    expect(useNav.getState().view).toEqual({ name: 'settings' });
    useNav.getState().go({ name: 'record' });

    // Signed in meanwhile (Settings, the browser's page) while the view stays open: the list comes.
    await signInToProvet();
    await (await yours()).findByRole('button', { name: /Luna/ });
    expect(screen.queryByRole('button', { name: 'Open Settings' })).toBeNull();
  });

  it('another vet in front: the list read for the last one is not shown to them', async () => {
    await signInToProvet();
    render(<m.RecorderView />);
    await (await yours()).findByRole('button', { name: /Luna/ });
    const demoVet = m.useToday.getState().vet;
    // Every state the view could have shown the next vet, from the moment they are in front.
    const shownToNext: unknown[] = [];
    const off = m.useToday.subscribe((s) => {
      if (s.vet !== demoVet && (s.day !== null || usePims.getState().status?.signedIn)) shownToNext.push(s);
    });
    await act(async () => {
      await createHandlers(core)['session:switchUser'](undefined as never);
      await core.session.signIn(COLLEAGUE_ACCOUNT.email, COLLEAGUE_ACCOUNT.password);
    });
    // The colleague has no Provet sign-in of their own on this computer.
    await screen.findByRole('button', { name: 'Open Settings' });
    expect(screen.queryByRole('list', { name: 'Your appointments today' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Luna/ })).toBeNull();
    expect(m.useToday.getState().day).toBeNull();
    off();
    expect(m.useToday.getState().vet).not.toBe(demoVet);
    expect(shownToNext).toEqual([]);
  }, 30_000);
});
