// More documents from one recording in the note view, on the real core and its sandbox: "Another
// document…" picks a template the consult has not been written with, the consult's documents
// sit on tabs (arrow keys move between them), each tab shows its own document, edit and copy,
// and one that failed says why with Try again. The document states in words are tested as the
// pure function they are.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { documentStatus } from '../../../../src/renderer/src/lib/consult-status.ts';
import type { ConsultInfo } from '../../../../src/shared/ipc.ts';
import type { DocumentInfo, JobInfo } from '../../../../src/shared/jobs.ts';
import { TEMPLATES } from '../../../../src/sandbox/templates.ts';
import { consult, job, recording } from '../../support/consult-info.ts';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { tidyWindowTests, windowWithEngine } from '../../support/window.ts';
import { recordConsult } from '../../support/recorded-consult.ts';

const SOAP = TEMPLATES.find((t) => t.name === 'SOAP')!.public_id;
const DISCHARGE = TEMPLATES.find((t) => t.name === 'Discharge instructions')!.public_id;

const doc = (patch: Partial<DocumentInfo> = {}): DocumentInfo => ({
  id: 'd1',
  name: 'Discharge instructions',
  templateId: DISCHARGE,
  state: 'uploaded',
  waitingFor: null,
  askedBy: null,
  serviceStatus: null,
  error: null,
  hasNote: false,
  edited: false,
  overdue: false,
  createdAt: '2026-03-05T11:00:00.000Z',
  updatedAt: '2026-03-05T11:00:00.000Z',
  completedAt: null,
  ...patch,
});
const consultWith = (jobPatch: Partial<JobInfo>): ConsultInfo =>
  consult(
    recording({
      id: 'r1',
      templateId: SOAP,
      recordedBy: {
        userId: 'u1',
        organizationId: 'o1',
        name: 'Dr. Demo Vet',
        email: 'demo@vetscribe.test',
        service: 'sandbox',
      },
    }),
    job({ recordingId: 'r1', templateId: SOAP, state: 'completed', ...jobPatch }),
  );

describe('documentStatus', () => {
  it('says in words where a document is: its turn, a wait, writing, late, failed, ready', () => {
    const done = consultWith({ state: 'completed' });
    const scribing = consultWith({ state: 'scribe_requested' });
    expect(documentStatus(doc({ waitingFor: 'turn' }), scribing).text).toBe(
      'Waiting for the note to be finished; it is asked for right after',
    );
    expect(documentStatus(doc({ waitingFor: 'turn' }), done).text).toBe('Waiting for the document asked for before it');
    expect(documentStatus(doc({ waitingFor: 'owner' }), done).text).toBe(
      'Waiting for Dr. Demo Vet to sign in: it is asked for with their account only',
    );
    // Asked for by a colleague: it waits for the colleague, whose sign-in alone it goes with.
    expect(
      documentStatus(
        doc({
          waitingFor: 'owner',
          askedBy: { userId: 'u2', name: 'Dr. Colleague Vet', email: 'colleague@vetscribe.test' },
        }),
        done,
      ).text,
    ).toBe('Waiting for Dr. Colleague Vet to sign in: it is asked for with their account only');
    expect(documentStatus(doc({ state: 'scribe_requested', serviceStatus: 'scribing' }), done)).toMatchObject({
      text: 'Scribing — the service is writing the document',
      badge: 'Writing',
    });
    expect(documentStatus(doc({ state: 'scribe_requested', overdue: true }), done, { overdueMinutes: 45 }).text).toBe(
      'The service has not finished this document after 45 minutes. It is still being checked every 2 minutes.',
    );
    expect(
      documentStatus(
        doc({ state: 'failed', error: { message: 'Template not found.', code: 'not_found', status: 404 } }),
        done,
      ),
    ).toMatchObject({
      text: 'Could not be written: Template not found.',
      tone: 'error',
    });
    expect(documentStatus(doc({ state: 'completed', hasNote: true }), done)).toMatchObject({
      text: 'Ready',
      tone: 'done',
    });
  });
});

describe('documents of a consult in the note view, on the real core', () => {
  let core: AppCore;
  let id: string;
  const written: Record<string, string>[] = [];

  beforeAll(async () => {
    ({ core } = await windowWithEngine({ signIn: true, scribeSeconds: 0.6 }));
    id = await recordConsult({ patientName: 'Bella', templateId: SOAP });
    await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('completed'), { timeout: 15_000 });
    // The window writes the clipboard itself here (no main clipboard): keep what it writes.
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push({ 'text/plain': text }) },
    });
  }, 30_000);
  tidyWindowTests(
    () => ({ core }),
    () => (written.length = 0),
  );

  /** Chooses an item of the note's "More" menu as a vet does: the button, then the item. */
  async function more(name: string) {
    fireEvent.click(await screen.findByRole('button', { name: 'More' }));
    fireEvent.click(screen.getByRole('button', { name }));
  }

  it('asks for another document with a template the consult has not been written with, then shows each on its own tab', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    // The note only: no tabs yet.
    expect(screen.queryByRole('tablist')).toBeNull();
    await more('Another document…');
    const form = within(screen.getByRole('group', { name: 'Another document from this recording' }));
    await waitFor(() => expect(form.getAllByRole('option').length).toBeGreaterThan(2));
    // The cursor is in the search; the note's own template is not offered.
    expect(document.activeElement).toBe(form.getByRole('searchbox', { name: 'Search templates' }));
    expect(form.getAllByRole('option').map((o) => o.textContent)).not.toContain('SOAP');
    expect(form.getAllByRole('option').map((o) => o.textContent)).toContain('Discharge instructions');

    // Nothing chosen: said so, nothing asked.
    fireEvent.click(form.getByRole('button', { name: 'Write this document' }));
    expect(form.getByRole('alert').textContent).toBe('Choose the template of the document first.');
    expect(core.pipeline.info(id)?.documents).toEqual([]);

    fireEvent.change(form.getByRole('searchbox', { name: 'Search templates' }), { target: { value: 'discharge' } });
    await waitFor(() =>
      expect((form.getByRole('combobox', { name: 'Template' }) as HTMLSelectElement).value).toBe(DISCHARGE),
    );
    fireEvent.click(form.getByRole('button', { name: 'Write this document' }));

    // The new document's tab is the one shown, first in words while it is written.
    const tablist = await screen.findByRole('tablist', { name: 'Documents of this consult' });
    const tabs = () => within(tablist).getAllByRole('tab');
    expect(tabs().map((t) => t.textContent?.replace(/ \(.*\)$/, ''))).toEqual(['SOAP', 'Discharge instructions']);
    expect(tabs()[1]!.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(tabs()[1]!.id);
    expect(within(screen.getByRole('tabpanel')).getByRole('status').textContent).toMatch(
      /^This document is not ready yet: /,
    );

    // Then its own note.
    const panel = await screen.findByRole('region', { name: 'Note' }, { timeout: 15_000 });
    expect(panel.textContent).toContain('This Discharge instructions note for Bella');
    expect(tabs()[1]!.textContent).toBe('Discharge instructions');

    // Arrow keys move between the tabs and show the one reached.
    fireEvent.keyDown(tabs()[1]!, { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tabs()[0]);
    expect(tabs()[0]!.getAttribute('aria-selected')).toBe('true');
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Note' }).textContent).toContain('This SOAP note for Bella'),
    );
    fireEvent.keyDown(tabs()[0]!, { key: 'End' });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Note' }).textContent).toContain(
        'This Discharge instructions note for Bella',
      ),
    );
    expect(within(tablist).getAllByRole('tab', { selected: true })).toHaveLength(1);

    // Copy takes the document shown, and is named for it; differentials are the note's only.
    fireEvent.click(screen.getByRole('button', { name: 'More' }));
    expect(screen.queryByRole('button', { name: /differentials/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Edit discharge instructions' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy discharge instructions' }));
    await waitFor(() => expect(written).toHaveLength(1));
    expect(written[0]!['text/plain']).toContain('Discharge instructions note for Bella');
    expect(written[0]!['text/plain']).not.toContain('SOAP note for Bella');
  });

  it('an edit of a document is its own: the note stays as the service wrote it', async () => {
    const documentId = core.pipeline.info(id)!.documents[0]!.id;
    render(<NoteView id={id} />);
    const tablist = await screen.findByRole('tablist');
    fireEvent.click(within(tablist).getByRole('tab', { name: 'Discharge instructions' }));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Note' }).textContent).toContain('Discharge instructions note'),
    );
    await more('Edit discharge instructions');
    const boxes = await screen.findAllByRole('textbox');
    fireEvent.change(boxes.at(-1)!, { target: { value: 'Cone on for ten days.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.pipeline.note(id, documentId).editedNote).toContain('Cone on for ten days.'));
    expect(core.pipeline.note(id).editedNote).toBeNull();
    await screen.findByText('Cone on for ten days.');
    fireEvent.click(within(tablist).getByRole('tab', { name: 'SOAP' }));
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Note' }).textContent).toContain('This SOAP note for Bella'),
    );
    expect(screen.getByRole('region', { name: 'Note' }).textContent).not.toContain('Cone on for ten days.');
  });

  it('a document the service could not write says why on its tab, with Try again', async () => {
    await act(() => core.pipeline.addDocument(id, 'no-such-template', 'Referral letter'));
    await waitFor(() => expect(core.pipeline.info(id)?.documents[1]?.state).toBe('failed'), { timeout: 15_000 });
    const before = core.pipeline.info(id)!.documents[1]!.updatedAt;
    render(<NoteView id={id} />);
    const tablist = await screen.findByRole('tablist');
    // The window hears of the failure by an event, which may come after the first render.
    const tab = await within(tablist).findByRole('tab', { name: 'Referral letter (Failed)' }, { timeout: 10_000 });
    fireEvent.click(tab);
    const panel = within(screen.getByRole('tabpanel'));
    expect(panel.getByRole('status').textContent).toBe(
      'This document is not ready yet: Could not be written: Template not found.Try again',
    );
    fireEvent.click(panel.getByRole('button', { name: 'Try again' }));
    // Asked again (the service still has no such template, and says so again).
    await waitFor(() => expect(core.pipeline.info(id)?.documents[1]?.updatedAt).not.toBe(before), { timeout: 15_000 });
    await waitFor(() => expect(core.pipeline.info(id)?.documents[1]?.state).toBe('failed'), { timeout: 15_000 });
    // The consult list says how many more documents it has.
    expect(core.pipeline.info(id)?.documents).toHaveLength(2);
  });

  it('after an edit of the SOAP note the discharge instructions say, once, that the edit is not in them; Ask again asks for them again', async () => {
    await act(() => core.pipeline.saveEditedNote(id, 'Carprofen 4 mg/kg once daily.'));
    const before = core.pipeline.info(id)!.documents[0]!;
    render(<NoteView id={id} />);
    const tablist = await screen.findByRole('tablist');
    // The SOAP note: no such line (its edit is its own), and the discharge instructions' edit is named.
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Note' }).textContent).toContain('Carprofen 4 mg/kg once daily.'),
    );
    expect(document.body.textContent).not.toContain('your edit to the SOAP note');
    expect(document.body.textContent).toContain(
      'Written from the recording: your edit to the discharge instructions is not in it.',
    );
    fireEvent.click(within(tablist).getByRole('tab', { name: 'Discharge instructions' }));
    const said = await screen.findAllByText('Written from the recording: your edit to the SOAP note is not in it.');
    expect(said).toHaveLength(1);
    const notice = said[0]!.closest('.notice') as HTMLElement;
    fireEvent.click(within(notice).getByRole('button', { name: 'Ask again' }));

    // The same template asked for once more; the one written before is kept beside it.
    await waitFor(() => expect(core.pipeline.info(id)?.documents).toHaveLength(3));
    const documents = core.pipeline.info(id)!.documents;
    expect(documents[0]).toMatchObject({ id: before.id, state: 'completed', hasNote: true });
    expect(documents[2]).toMatchObject({ templateId: DISCHARGE, name: 'Discharge instructions' });
    // Its tab is the one shown, and then its own note.
    await waitFor(() =>
      expect(within(tablist).getByRole('tab', { selected: true }).textContent).toMatch(/^Discharge instructions \(2\)/),
    );
    await waitFor(() => expect(core.pipeline.info(id)?.documents[2]?.state).toBe('completed'), { timeout: 15_000 });
    await waitFor(() =>
      expect(screen.getByRole('region', { name: 'Note' }).textContent).toContain('Discharge instructions note'),
    );
  });
});
