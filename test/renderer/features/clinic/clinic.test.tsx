// The clinic's consults from the service in the Consults view, against the real engine and its
// sandbox: a second computer (its own data folder) records Bella; this window lists her consult
// below its own, each row marked as recorded elsewhere, found by the same search, day and
// state filters, and its note opens read-only and copies; once read, its note's words find it,
// and the conversation about the consult sits under it, its turns shown again when it reopens.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ClinicConsult } from '../../../../src/shared/clinic.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { ClinicNoteView } from '../../../../src/renderer/src/features/clinic/clinic-note-view.tsx';
import { filterClinic } from '../../../../src/renderer/src/lib/consult-filter.ts';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { windowBesideExamRoom } from '../../support/exam-room.ts';

// The other exam room: its own data folder, the same service and clinic.
const rooms = windowBesideExamRoom();
/** The clipboard jsdom lacks: each write of the window, its flavours as text. */
const written = rooms.browser.written;

const TODAY = new Date();
const key = (d: Date) =>
  `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

describe("the clinic's consults in Consults", () => {
  it('filters by words in the patient, visit and template, by day and by state', () => {
    const c = (over: Partial<ClinicConsult>): ClinicConsult => ({
      key: 'scribe:x',
      scribeId: 'x',
      recordingSessionId: null,
      patientName: null,
      description: null,
      templateId: 't',
      templateName: 'SOAP',
      status: 'scribed',
      updatedAt: TODAY.toISOString(),
      noteKept: false,
      ...over,
    });
    const list = [
      c({ key: 'scribe:a' }),
      c({ key: 'scribe:b', status: 'scribing', templateName: 'Discharge' }),
      c({ key: 'session:r', scribeId: null, status: null, templateName: null, patientName: 'Bella Rossi' }),
      c({ key: 'scribe:old', updatedAt: '2020-01-02T12:00:00.000Z' }),
    ];
    const keys = (f: Partial<Parameters<typeof filterClinic>[1]>) =>
      filterClinic(list, { words: '', day: '', state: 'all', ...f }).map((x) => x.key);
    expect(keys({ words: 'bella' })).toEqual(['session:r']);
    expect(keys({ words: 'ROSSI bella' })).toEqual(['session:r']);
    expect(keys({ words: 'soap' })).toEqual(['scribe:a', 'scribe:old']);
    expect(keys({ day: key(TODAY) })).toEqual(['scribe:a', 'scribe:b', 'session:r']);
    expect(keys({ state: 'ready' })).toEqual(['scribe:a', 'scribe:old']);
    expect(keys({ state: 'on-the-way' })).toEqual(['scribe:b']);
    expect(keys({ state: 'needs-you' })).toEqual([]);
  });

  it('lists them marked as recorded elsewhere, finds them by the search, and opens and copies the note', async () => {
    render(<ConsultsView />);
    // Nothing recorded here: the clinic's list is still shown.
    const section = await screen.findByRole('region', { name: 'The clinic’s other consults' });
    // Read from the service at once for the vet signed in; Refresh reads it again.
    await within(section).findByText(/^Read from the service today at/);
    fireEvent.click(await within(section).findByRole('button', { name: 'Refresh' }));
    const bella = await within(section).findByRole('article', { name: 'Bella' });
    expect(within(bella).getByText('From the service, recorded elsewhere')).toBeTruthy();
    expect(within(bella).getByText(/Limping on the left hind/)).toBeTruthy();
    // The service does not say which note is hers: the one written then is offered, on her row.
    expect(
      within(bella).getByText(/^1 note written at .+ could be this visit's: the service does not say which\.$/),
    ).toBeTruthy();
    const notes = within(section)
      .getAllByRole('article')
      .filter((a) => within(a).queryByRole('button', { name: 'Open note' }));
    expect(notes).toHaveLength(1);
    expect(within(notes[0]!).getByText('From the service, recorded elsewhere')).toBeTruthy();

    // The same search and filters as this computer's consults.
    const search = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(search, { target: { value: 'bella' } });
    expect(
      within(section)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual(['Bella']);
    fireEvent.change(search, { target: { value: 'milo' } });
    expect(within(section).queryAllByRole('article')).toEqual([]);
    expect(within(section).getByText('None of them matches.')).toBeTruthy();
    fireEvent.change(search, { target: { value: '' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'State' }), { target: { value: 'ready' } });
    expect(within(section).getAllByRole('article')).toEqual([notes[0]]);

    // Opened: read from the service, shown read-only, copied.
    fireEvent.click(within(section).getByRole('button', { name: 'Open note' }));
    const view = useNav.getState().view;
    expect(view.name).toBe('clinic-note');
    cleanup();
    render(<ClinicNoteView noteKey={(view as { key: string }).key} />);
    const page = await screen.findByRole('region', { name: 'Note' });
    expect(page.textContent).toContain('Bella');
    expect(screen.queryByRole('button', { name: /Edit/ })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Copy note' }));
    await screen.findByText('Copied');
    expect(written).toHaveLength(1);
    expect(written[0]!['text/plain']).toContain('Bella');
    expect(written[0]!['text/html']).toContain('Bella');
    expect(written[0]!['web text/rtf']).toMatch(/^\{\\rtf1/);
  }, 30_000);

  it('asks about a note from elsewhere under it, shows the turns again when it reopens, and finds it by a word of its note', async () => {
    const noteKey = (await rooms.core.clinic.refresh()).consults.find((c) => c.patientName === 'Bella')!.candidates![0]!
      .key;
    render(<ClinicNoteView noteKey={noteKey} />);
    await screen.findByRole('region', { name: 'Note' });
    const panel = screen.getByRole('region', { name: 'Ask about this consult' });
    const turns = () => within(screen.getByRole('list', { name: 'Conversation' })).getAllByRole('listitem');
    fireEvent.click(within(panel).getByRole('button', { name: 'What should the pet owner watch for?' }));
    await waitFor(() => expect(turns()).toHaveLength(1));
    expect(turns()[0]!.textContent).toContain('What should the pet owner watch for?');
    expect(turns()[0]!.querySelector('.chat-answer .chat-text')!.textContent).not.toBe('');
    fireEvent.change(within(panel).getByRole('textbox', { name: 'Your question about this consult' }), {
      target: { value: 'Check the doses in this plan' },
    });
    fireEvent.click(within(panel).getByRole('button', { name: 'Ask' }));
    await waitFor(() => expect(turns()).toHaveLength(2));
    expect(turns()[1]!.textContent).not.toContain('Earlier you asked');
    expect(screen.queryByRole('alert')).toBeNull();

    // Opened again: the two turns are read from main.
    cleanup();
    render(<ClinicNoteView noteKey={noteKey} />);
    await screen.findByRole('region', { name: 'Note' });
    await waitFor(() => expect(turns()).toHaveLength(2));
    cleanup();

    // A word of the note that neither the patient, the visit nor the template says finds it.
    const listed = (await rooms.core.clinic.view()).consults;
    const others = listed.map((c) => [c.patientName, c.description, c.templateName].join(' ').toLowerCase()).join(' ');
    const note = (await rooms.core.clinic.note(noteKey)).note.toLowerCase();
    const word = note.split(/[^a-z]+/).find((w) => w.length >= 6 && !others.includes(w))!;
    expect(word).toBeTruthy();
    render(<ConsultsView />);
    const section = await screen.findByRole('region', { name: 'The clinic’s other consults' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: word } });
    await waitFor(() => expect(within(section).getAllByRole('article')).toHaveLength(1));
    expect(within(within(section).getByRole('article')).getByRole('button', { name: 'Open note' })).toBeTruthy();
  }, 30_000);
});
