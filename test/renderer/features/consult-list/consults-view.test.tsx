// The Consults list against the real core and its sandbox: recordings made through the window's API
// and through the core, named by their patient, their state following main's events up to
// "Note ready", and the actions (send, upload a recovered recording, retry, delete, discard,
// add the name an older recording lacks, ask again for a late note).
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ownerOf } from '../../../../src/main/core/jobs/pipeline.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { consult, job, recording } from '../../support/consult-info.ts';
import { dayKey } from '../../../../src/renderer/src/lib/days.ts';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { windowWithEngine, type WindowCall } from '../../support/window.ts';
import { firstTemplateId, recordConsult, recordedAudio } from '../../support/recorded-consult.ts';
import { ConsultRow } from '../../../../src/renderer/src/features/consult-list/consult-row.tsx';
import { useNextSignIn } from '../../../../src/renderer/src/stores/switch-user.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { api } from '../../../../src/renderer/src/api.ts';
import { useRecorder } from '../../../../src/renderer/src/stores/recorder.ts';

const { chunks } = recordedAudio;

describe('ConsultsView, on the real core', () => {
  let core: AppCore;
  let templateId: string;

  /** What the window sent over the bridge, in order. */
  let calls: WindowCall[];

  beforeAll(async () => {
    ({ core, calls } = await windowWithEngine({ signIn: true }));
    templateId = await firstTemplateId();
  }, 30_000);
  afterEach(cleanup);
  afterAll(async () => {
    await core.stop();
  });

  /** A recording made as the recorder makes one: start (the patient, the visit), a chunk a second, stop. */
  async function record(title: string, template?: string): Promise<string> {
    const [patientName = '', description] = title.split(' — ');
    return recordConsult({
      patientName,
      ...(description ? { description } : {}),
      ...(template ? { templateId: template } : {}),
    });
  }

  /** A recording left unfinished by a crash, as the next start finds it. */
  async function recovered(title: string): Promise<string> {
    const [patientName = '', description] = title.split(' — ');
    const meta = await core.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      patientName,
      description: description ?? null,
      owner: mine(),
    });
    for (const [seq, data] of chunks.slice(0, 3).entries())
      await core.recordings.appendChunk(meta.id, seq, data, (seq + 1) * 1000);
    await core.recordings.recoverUnfinished();
    return meta.id;
  }

  const row = (title: string) => screen.getByRole('article', { name: title });
  /** The vet signed in, as the owner a recording made through the window gets. */
  const mine = () => ownerOf(core.session.state().user!, core.serviceKey());

  it('with nothing recorded, says so and leads to Record', async () => {
    useNav.getState().go({ name: 'consults' });
    render(<ConsultsView />);
    expect(screen.getByText('Loading consults…')).toBeTruthy();
    await screen.findByText('No consults yet — press Record to start one');
    fireEvent.click(screen.getByRole('button', { name: 'Go to Record' }));
    expect(useNav.getState().view).toEqual({ name: 'record' });
  });

  it('signed out (a recording going on after Switch user), says the consults show after sign-in, never that there are none', async () => {
    const demo = core.appInfo().sandbox!.demo;
    await act(async () => {
      await core.session.signOut('user');
      await useSession.getState().load();
    });
    useRecorder.setState({ status: 'recording' });
    useNav.getState().go({ name: 'consults' });
    try {
      render(<ConsultsView />);
      const said = await screen.findByText('Your consults show here after sign-in.');
      expect(said.closest('.consults-empty')!.textContent).toContain(
        'A recording is going on: once it is stopped on Record, the sign-in screen comes next.',
      );
      expect(screen.queryByText(/No consults yet/)).toBeNull();
      expect(screen.queryByRole('search')).toBeNull();
      expect(screen.queryByRole('heading', { name: 'The clinic’s other consults' })).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Go to Record' }));
      expect(useNav.getState().view).toEqual({ name: 'record' });
      cleanup();

      // With no recording going, the way there is Sign in.
      useRecorder.setState({ status: 'idle' });
      render(<ConsultsView />);
      await screen.findByText('Your consults show here after sign-in.');
      expect(screen.queryByText(/A recording is going on/)).toBeNull();
      expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    } finally {
      useRecorder.setState({ status: 'idle' });
      await act(async () => {
        await core.session.signIn(demo.email, demo.password);
        await useSession.getState().load();
      });
    }
  });

  it('lists a recording without a template, sends it with the one chosen, and opens its note when main says it is ready', async () => {
    const id = await record('Rex — limping');
    render(<ConsultsView />);
    await screen.findByRole('article', { name: 'Rex — limping' });
    expect(screen.getByRole('heading', { level: 2, name: 'Today' })).toBeTruthy();
    const rex = within(row('Rex — limping'));
    expect(rex.getByText('Choose a template to send')).toBeTruthy();
    // The recording's own length (4.9 s of audio), in whole seconds as the stopwatch counts them.
    expect(rex.getByText('0:04')).toBeTruthy();
    const send = rex.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    const picker = (await rex.findByRole('combobox', { name: 'Template' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.querySelector(`option[value="${templateId}"]`)).not.toBeNull());
    if (picker.value === '') {
      expect(send.disabled).toBe(true);
      fireEvent.change(picker, { target: { value: templateId } });
    }
    fireEvent.click(send);
    await waitFor(() => expect(rex.getByText('Note ready')).toBeTruthy(), { timeout: 15_000 });
    expect(core.pipeline.info(id)).toMatchObject({ state: 'completed', templateId: picker.value });
    fireEvent.click(rex.getByRole('button', { name: 'Open note' }));
    expect(useNav.getState().view).toEqual({ name: 'note', id });
  }, 20_000);

  it('follows a consult made in the core from its first event to "Note ready"', async () => {
    render(<ConsultsView />);
    await screen.findByRole('article', { name: 'Rex — limping' });
    const meta = await core.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      patientName: 'Bella',
      description: 'vomiting',
      owner: mine(),
    });
    for (const [seq, data] of chunks.entries()) await core.recordings.appendChunk(meta.id, seq, data, (seq + 1) * 1000);
    await core.recordings.finish(meta.id, { durationMs: 5000 });
    const seen: string[] = [];
    await core.pipeline.submit(meta.id, templateId);
    await waitFor(
      () => {
        const text = within(row('Bella — vomiting')).getByText(
          /^(Getting ready to send…|Waiting to upload|Uploading \d+%|Uploaded — asking for the note…|Sent — .*|Scribing — .*|Written — .*|Note ready)$/,
        ).textContent!;
        if (seen.at(-1) !== text) seen.push(text);
        expect(text).toBe('Note ready');
      },
      { timeout: 15_000, interval: 10 },
    );
    // It got there through the states main reported on the way, not in one jump, each in words.
    expect(seen.some((t) => t.startsWith('Sent — ') || t.startsWith('Scribing — '))).toBe(true);
    expect(seen.join('\n')).not.toMatch(/\b(requested|scribed)\b/);
    expect(seen.at(-1)).toBe('Note ready');
    expect(within(row('Bella — vomiting')).getByRole('button', { name: 'Open note' })).toBeTruthy();
  }, 20_000);

  it('shows the service’s refusal, and Retry asks again', async () => {
    const id = await record('Milo — cough');
    await api.consults.submit({ id, templateId: 'tpl-that-does-not-exist' });
    render(<ConsultsView />);
    const milo = within(await screen.findByRole('article', { name: 'Milo — cough' }));
    await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('failed'), { timeout: 15_000 });
    // The service's own words, as the engine has them.
    await waitFor(() => expect(milo.getByText(`Failed: ${core.pipeline.info(id)!.error!.message}`)).toBeTruthy());
    expect(core.pipeline.info(id)!.error!.message).toMatch(/template/i);
    const before = core.pipeline.counters.scribeRequests;
    fireEvent.click(milo.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(core.pipeline.counters.scribeRequests).toBe(before + 1), { timeout: 15_000 });
    await waitFor(() => expect(milo.getByText(/^Failed: /)).toBeTruthy(), { timeout: 15_000 });
  }, 30_000);

  it('uploads a recording recovered after a crash once a template is chosen', async () => {
    const id = await recovered('Luna — check-up');
    render(<ConsultsView />);
    const luna = within(await screen.findByRole('article', { name: 'Luna — check-up' }));
    expect(luna.getByText('Recovered after the app closed')).toBeTruthy();
    expect(luna.getByRole('button', { name: 'Discard' })).toBeTruthy();
    const picker = (await luna.findByRole('combobox', { name: 'Template' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.querySelector(`option[value="${templateId}"]`)).not.toBeNull());
    fireEvent.change(picker, { target: { value: templateId } });
    fireEvent.click(luna.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(luna.getByText('Note ready')).toBeTruthy(), { timeout: 15_000 });
    expect(core.cache.consult(id)?.recording.state).toBe('finished');
  }, 20_000);

  it('an older consult without a patient name says so, refuses a blank name, and goes on once named', async () => {
    // As a version that asked for no patient left it: a label, a template, no name.
    const meta = await core.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      label: 'Oscar — old',
      templateId,
      owner: mine(),
    });
    for (const [seq, data] of chunks.entries()) await core.recordings.appendChunk(meta.id, seq, data, (seq + 1) * 1000);
    await core.recordings.finish(meta.id, { durationMs: 5000 });
    const before = calls.length;
    render(<ConsultsView />);
    const oscar = within(await screen.findByRole('article', { name: 'No patient name — Oscar — old' }));
    expect(oscar.getByText("Waiting for the patient's name — type it to send")).toBeTruthy();
    expect(oscar.queryByRole('button', { name: 'Send' })).toBeNull();

    fireEvent.click(oscar.getByRole('button', { name: "Add the patient's name" }));
    const name = oscar.getByRole('textbox', { name: "Patient's name" });
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(oscar.getByRole('button', { name: 'Save patient details' }));
    expect(oscar.getByRole('alert').textContent).toBe(
      "Type the patient's name first: the service needs it to write the note.",
    );
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(calls.slice(before).filter((c) => c.channel === 'consults:update')).toEqual([]);

    fireEvent.change(name, { target: { value: ' Oscar ' } });
    fireEvent.change(oscar.getByRole('textbox', { name: 'Visit description (optional)' }), {
      target: { value: 'Annual check' },
    });
    fireEvent.click(oscar.getByRole('button', { name: 'Save patient details' }));
    const named = within(await screen.findByRole('article', { name: 'Oscar — Annual check' }));
    expect(
      calls
        .slice(before)
        .filter((c) => c.channel === 'consults:update')
        .map((c) => c.input),
    ).toEqual([{ id: meta.id, patientName: 'Oscar', description: 'Annual check' }]);
    // Its template was chosen long ago: with the name it goes on to the service by itself.
    await waitFor(() => expect(named.getByText('Note ready')).toBeTruthy(), { timeout: 15_000 });
    expect(core.cache.consult(meta.id)?.recording.patientName).toBe('Oscar');
  }, 20_000);

  it('discards a recovered recording, and deletes a consult, each only after asking', async () => {
    const lost = await recovered('Oscar — lost');
    render(<ConsultsView />);
    const oscar = within(await screen.findByRole('article', { name: 'Oscar — lost' }));
    fireEvent.click(oscar.getByRole('button', { name: 'Discard' }));
    expect(oscar.getByText(/Its audio will be deleted from this computer/)).toBeTruthy();
    // The safe answer has the focus.
    expect(document.activeElement).toBe(oscar.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(oscar.getByRole('button', { name: 'Yes, discard' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Oscar — lost' })).toBeNull());
    expect(core.cache.consult(lost)).toBeNull();

    // A consult with a note is deleted from its note's More menu, not from the list: the rows
    // with a note show Open note alone, never a red Delete beside each one.
    for (const ready of ['Bella — vomiting', 'Rex — limping']) {
      const r = within(row(ready));
      expect(r.getByRole('button', { name: 'Open note' })).toBeTruthy();
      expect(r.queryByRole('button', { name: 'Delete' })).toBeNull();
    }
    // A consult with no note to open keeps its Delete on the row, a quiet button, not a red one.
    const milo = within(row('Milo — cough'));
    const miloId = core.cache
      .all()
      .find((c) => c.recording.patientName === 'Milo' && c.recording.description === 'cough')!.recording.id;
    const remove = milo.getByRole('button', { name: 'Delete' });
    expect(remove.className).not.toContain('danger');
    fireEvent.click(remove);
    expect(milo.getByText(/Its audio and its note will be deleted/)).toBeTruthy();
    fireEvent.click(milo.getByRole('button', { name: 'Cancel' }));
    expect(core.cache.consult(miloId)).not.toBeNull();
    fireEvent.click(milo.getByRole('button', { name: 'Delete' }));
    fireEvent.click(milo.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Milo — cough' })).toBeNull());
    expect(core.cache.consult(miloId)).toBeNull();
    expect(row('Rex — limping')).toBeTruthy();
  }, 20_000);

  it('finds a consult by the words of its note, by state and by day; rows name their template and say Edited', async () => {
    const id = await record('Mango — itchy ears', templateId);
    await waitFor(() => expect(core.cache.consult(id)?.job?.state).toBe('completed'), { timeout: 15_000 });
    await api.consults.saveNote({ id, text: '## Plan\nEar cleaner twice weekly.' });
    const templateName = (await api.templates.list({ page: 1 })).items.find((t) => t.id === templateId)!.name;
    render(<ConsultsView />);
    const mango = within(await screen.findByRole('article', { name: 'Mango — itchy ears' }));
    await waitFor(() => expect(mango.getByText(templateName)).toBeTruthy());
    expect(mango.getByText('Edited')).toBeTruthy();
    const titles = () =>
      screen.queryAllByRole('article').map((a) => within(a).getByRole('heading', { level: 3 }).textContent);
    const total = titles().length;
    expect(total).toBeGreaterThan(1);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'ear CLEANER' } });
    await waitFor(() => expect(titles()).toEqual(['Mango — itchy ears']));
    expect(screen.getByRole('status').textContent).toBe(`1 of ${total} consults. Show all`);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'nothing-like-this (' } });
    await waitFor(() => expect(titles()).toEqual([]));
    expect(screen.getByRole('status').textContent).toBe('No consult matches. Show all');
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(titles()).toHaveLength(total);

    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'ready' } });
    expect(titles()).toContain('Mango — itchy ears');
    for (const a of screen.getAllByRole('article')) expect(within(a).getByText('Note ready')).toBeTruthy();
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'all' } });
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: '2001-01-01' } });
    expect(titles()).toEqual([]);
    fireEvent.change(screen.getByLabelText('Day'), { target: { value: dayKey(new Date()) } });
    expect(titles()).toHaveLength(total);
  }, 30_000);

  it('a consult waiting for sign-in (a window that missed the sign-out) offers Sign in, which leads to the sign-in screen', async () => {
    await useSession.getState().load();
    expect(useSession.getState().session.signedIn).toBe(true);
    render(<ConsultRow consult={consult(recording(), job({ state: 'upload_url', waitingFor: 'sign-in' }))} />);
    expect(screen.getByText('Waiting for sign-in')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(useSession.getState().session.signedIn).toBe(false));
    expect(core.session.state().signedIn).toBe(false);
    expect(useNextSignIn.getState().next?.note).toBe('Sign in to send the consults waiting on this computer.');
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
  });

  it('offers a consult recorded while no one was signed in to the vet signed in, and sends it as theirs only at their word', async () => {
    await core.session.signOut('user');
    const meta = await core.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      patientName: 'Milo',
      description: 'coughing',
      templateId,
    });
    for (const [seq, data] of chunks.entries()) await core.recordings.appendChunk(meta.id, seq, data, (seq + 1) * 1000);
    await core.recordings.finish(meta.id, { durationMs: 5000 });
    const demo = core.appInfo().sandbox!.demo;
    await core.session.signIn(demo.email, demo.password);
    await useSession.getState().load();
    render(<ConsultsView />);
    const milo = within(await screen.findByRole('article', { name: 'Milo — coughing' }));
    expect(milo.getByText('Recorded while no one was signed in — send it as yours?')).toBeTruthy();
    // Nothing but the claim: no note to open, no delete, nothing sent yet.
    expect(milo.queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(milo.queryByRole('button', { name: 'Send' })).toBeNull();
    expect(core.pipeline.info(meta.id)).toBeNull();
    fireEvent.click(milo.getByRole('button', { name: 'Send as Dr. Demo Vet' }));
    await waitFor(() => expect(milo.getByText('Note ready')).toBeTruthy(), { timeout: 15_000 });
    expect(core.cache.consult(meta.id)?.recording.recordedBy?.email).toBe(demo.email);
    expect(calls.filter((c) => c.channel === 'consults:claim')).toEqual([
      { channel: 'consults:claim', input: { id: meta.id } },
    ]);
  }, 20_000);
});
