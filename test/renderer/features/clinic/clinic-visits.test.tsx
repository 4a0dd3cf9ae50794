// A visit recorded in another exam room, as this PC lists it when the service does not say which
// note is whose (no clinic relay): against the real engine and its sandbox, the other room
// records Bella and Milo one after the other. Each visit is one row with the notes that could be
// its own, each openable; the search for the patient finds them; a note opened from the list
// says it is the service's original and, where the service does not name the patient, says so
// on the screen and on top of the copied note.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { ClinicNoteView } from '../../../../src/renderer/src/features/clinic/clinic-note-view.tsx';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { recordNote, windowBesideExamRoom } from '../../support/exam-room.ts';

// Two pets in a row in the same room: Milo's note is written minutes from Bella's.
const rooms = windowBesideExamRoom((elsewhere) => recordNote(elsewhere, 'Milo', 'Itchy ears'), 90_000);
/** The clipboard jsdom lacks: each write of the window, its flavours as text. */
const written = rooms.browser.written;

const CANDIDATES = /^2 notes written (at|between) .* could be this visit's/;

describe('a visit from another exam room, its note not named by the service', () => {
  it('is one row per visit with its candidate notes, each openable, and the search for the patient finds them', async () => {
    render(<ConsultsView />);
    const section = await screen.findByRole('region', { name: 'The clinic’s other consults' });
    fireEvent.click(await within(section).findByRole('button', { name: 'Refresh' }));
    const bella = await within(section).findByRole('article', { name: 'Bella' }, { timeout: 10_000 });
    // Two visits, two rows: no row of a note on its own, no row that cannot be opened.
    expect(
      within(section)
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-label')),
    ).toEqual(['Milo', 'Bella']);
    expect(within(section).queryByText(/patient not named by the service/)).toBeNull();
    expect(within(bella).getByText(CANDIDATES)).toBeTruthy();
    expect(within(bella).getAllByRole('button', { name: /^Open note/ })).toHaveLength(2);

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'Bella' } });
    const found = within(section).getAllByRole('article');
    expect(found.map((a) => a.getAttribute('aria-label'))).toEqual(['Bella']);
    const open = within(found[0]!).getAllByRole('button', { name: /^Open note/ });
    expect(open).toHaveLength(2);
    fireEvent.click(open[0]!);
    expect(useNav.getState().view.name).toBe('clinic-note');
  }, 60_000);

  it("opens as the service's original, says the service does not name the patient, and copies saying so first", async () => {
    const view = await rooms.core.clinic.view();
    const bella = view.consults.find((c) => c.patientName === 'Bella')!;
    // (Today's list, where there are no candidates, gives the same note a row of its own.)
    const key = bella.candidates?.[0]?.key ?? view.consults.find((c) => c.scribeId !== null && !c.patientName)!.key;
    render(<ClinicNoteView noteKey={key} />);
    await screen.findByRole('region', { name: 'Note' });
    expect(
      screen.getByText("The service's original: it may have been edited on the PC where it was recorded."),
    ).toBeTruthy();
    expect(screen.getByText(/Patient not named by the service/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy note' }));
    await screen.findByText('Copied');
    const copied = written.at(-1)!;
    expect(copied['text/plain']).toMatch(/^Patient not named by the service/);
    expect(copied['text/html']).toMatch(/^<h1>Patient not named by the service/);
    expect(copied['web text/rtf']).toContain('Patient not named by the service');
  }, 60_000);
});
