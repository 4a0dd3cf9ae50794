// What sits around a ready note, on the real core and its sandbox: More ends with Delete, set
// apart; Open note leaves the cursor on the note's title; Copy says "Copied" in the button's own
// place (and to assistive technology) without a line that moves the bar; a note of this
// computer and one from another exam room give their date in the same words.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import { App } from '../../../../src/renderer/src/app.tsx';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { ClinicNoteView } from '../../../../src/renderer/src/features/clinic/clinic-note-view.tsx';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { tidyWindowTests, windowWithEngine } from '../../support/window.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { browserStandIns } from '../../support/browser-stand-ins.ts';
import { examRoomThatRecordedBella } from '../../support/exam-room.ts';

let core: AppCore;
let elsewhere: AppCore<Sandbox> | undefined;
let id: string;
const browser = browserStandIns();

beforeAll(async () => {
  ({ core } = await windowWithEngine({ signIn: true }));
  id = await recordConsult({ patientName: 'Bella', description: 'vomiting', templateId: await firstTemplateId() });
  await waitFor(() => expect(core.pipeline.info(id)?.state).toBe('completed'), { timeout: 20_000 });
  elsewhere = await examRoomThatRecordedBella(core);
  await useSession.getState().load();
  browser.install();
}, 90_000);
tidyWindowTests(
  () => ({ core }),
  () => (browser.written.length = 0),
);
afterAll(async () => {
  await elsewhere?.stop();
});

/** "Saturday, 28 November 2026": the words of a day in this window's language. */
const longDay = (d: Date) =>
  d.toLocaleDateString([], { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });

describe('around a ready note', () => {
  it('ends More with Delete, after a separator, below "Another document…"', async () => {
    render(<NoteView id={id} />);
    const button = await screen.findByRole('button', { name: 'More' });
    fireEvent.click(button);
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    const items = [...list.querySelectorAll('button, hr, [role="separator"]')].map((el) =>
      el.tagName === 'BUTTON' ? el.textContent : 'separator',
    );
    expect(items.slice(-4)).toEqual(['Rename', 'Another document…', 'separator', 'Delete']);
    expect(within(list).getAllByRole('separator')).toHaveLength(1);
  });

  it('after Open note, the cursor is on the note’s title, not on the page', async () => {
    render(<App />);
    act(() => useNav.getState().go({ name: 'consults' }));
    // This computer's own consult (today's list): the clinic's list below may offer Bella's too.
    const today = await screen.findByRole('region', { name: 'Today' }, { timeout: 10_000 });
    const open = await within(today).findByRole('button', { name: /^Open note/ }, { timeout: 10_000 });
    open.focus();
    await act(async () => fireEvent.click(open));
    const title = await screen.findByRole('heading', { level: 1, name: 'Bella — vomiting' });
    await waitFor(() => expect(document.activeElement).toBe(title));
    act(() => useNav.getState().go({ name: 'record' }));
  });

  it('says "Copied" in the Copy button’s place and in a status line that takes no room', async () => {
    render(<NoteView id={id} />);
    const bar = within(await screen.findByRole('group', { name: 'Actions on the note' }));
    const status = bar.getByRole('status');
    const copy = bar.getByRole('button', { name: 'Copy note' });
    fireEvent.click(copy);
    await waitFor(() => expect(copy.textContent).toMatch(/^Copied/));
    expect(bar.getByRole('button', { name: 'Copied ✓' })).toBe(copy);
    // The same status element, read out, out of the bar's layout.
    expect(bar.getByRole('status')).toBe(status);
    expect(status.textContent).toBe('Copied');
    expect(status.classList.contains('visually-hidden')).toBe(true);
    expect(browser.written).toHaveLength(1);
  });

  it('gives the date of a note from another exam room in the words of a note of this computer', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    const here = document.querySelector('.note-meta')!.textContent!;
    expect(here).toContain(longDay(new Date()));

    const view = await core.clinic.view();
    const bella = view.consults.find((c) => c.patientName === 'Bella')!;
    const key = bella.candidates?.[0]?.key ?? view.consults.find((c) => c.scribeId !== null && !c.patientName)!.key;
    render(<ClinicNoteView noteKey={key} />);
    await waitFor(() => expect(document.querySelectorAll('.note-meta')).toHaveLength(2));
    const there = document.querySelectorAll('.note-meta')[1]!.textContent!;
    expect(there).not.toMatch(/\d{4}-\d\d-\d\d/);
    expect(there).toContain(longDay(new Date()));
  });
});
