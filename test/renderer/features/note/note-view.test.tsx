// The note view against the real core and its sandbox: the consult named by its patient, the
// sandbox's own note rendered with its sections, an edit saved in main and kept, Copy (text,
// HTML and RTF) and the exports (.txt, .rtf, .pdf) made by main from the text the vet sees,
// the way to the differentials panel, the recording, the patient details changed until the
// consult is sent, and a note that is not ready yet. jsdom has neither a clipboard (with
// ClipboardItem) nor object URLs: those browser APIs are the only stand-ins (browser-stand-ins.ts).
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { figuresLine, findFigures } from '../../../../src/shared/note/figures.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import {
  bodyShown,
  joinSections,
  splitSections,
  withBody,
} from '../../../../src/renderer/src/features/note/note-sections.ts';
import { NoteView } from '../../../../src/renderer/src/features/note/note-view.tsx';
import { useNav } from '../../../../src/renderer/src/stores/nav.ts';
import { tidyWindowTests, windowWithEngine } from '../../support/window.ts';
import { firstTemplateId, recordConsult } from '../../support/recorded-consult.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { useSettings } from '../../../../src/renderer/src/stores/settings.ts';
import { api } from '../../../../src/renderer/src/api.ts';
import { browserStandIns, TestClipboardItem } from '../../support/browser-stand-ins.ts';

describe('NoteView, on the real core', () => {
  let core: AppCore;
  let templateId: string;
  let id: string;
  const { written, copiedText, downloads, workingClipboard, install } = browserStandIns();

  const record = (patientName: string, description: string, template?: string) =>
    recordConsult({ patientName, description, ...(template ? { templateId: template } : {}) });

  const waitForCompleted = (consult: string) =>
    waitFor(() => expect(core.pipeline.info(consult)?.state).toBe('completed'), { timeout: 15_000 });

  beforeAll(async () => {
    ({ core } = await windowWithEngine({ signIn: true }));
    templateId = await firstTemplateId();
    id = await record('Bella', 'vomiting', templateId);
    await waitForCompleted(id);

    install();
  }, 30_000);
  tidyWindowTests(
    () => ({ core }),
    () => {
      written.length = 0;
      copiedText.length = 0;
      TestClipboardItem.rtf = true;
    },
  );

  const noteRegion = () => screen.getByRole('region', { name: 'Note' });
  const headingsOf = (text: string) => [...text.matchAll(/^#{1,3} (.+?)\s*$/gm)].map((m) => m[1]!);

  it('names the consult by its patient, and renders the note with its sections, not as markdown', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    expect(screen.getByRole('heading', { level: 1, name: 'Bella — vomiting' })).toBeTruthy();
    const original = core.pipeline.note(id).note!;
    const sections = headingsOf(original);
    expect(sections.length).toBeGreaterThan(1);
    const region = within(noteRegion());
    expect(region.getAllByRole('heading').map((h) => h.textContent)).toEqual(sections);
    // Each section's text is a paragraph of its own.
    const firstText = original
      .split('\n')
      .find((l) => l.trim() !== '' && !l.startsWith('#') && !/^\s*[-*•]\s/.test(l))!
      .trim();
    expect(region.getByText(firstText, { exact: false }).closest('p')).not.toBeNull();
    expect(noteRegion().textContent).not.toMatch(/(^|\s)#{1,3} /);
    expect(screen.queryByText('Edited')).toBeNull();
  });

  it('marks the doses, weights, temperatures, rates and drug names of the note, and counts them in one line', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    const marks = [...noteRegion().querySelectorAll('mark.figure')];
    const original = core.pipeline.note(id).note!;
    const expected = findFigures(
      original
        .split('\n')
        .filter((l) => !/^#{1,6} /.test(l))
        .join('\n'),
    );
    expect(expected.length).toBeGreaterThan(3);
    expect(marks.map((m) => m.textContent)).toEqual(expected.map((f) => f.text));
    expect(marks.map((m) => m.className)).toEqual(expected.map((f) => `figure figure-${f.kind}`));
    // The words are the note's own: marking changes none of them.
    expect(noteRegion().textContent).not.toContain('<mark');
    expect(screen.getByRole('note').textContent).toBe(figuresLine(expected));
    expect(screen.getByRole('note').textContent).toMatch(
      /^\d+ (dose|weight|temperature|rate|drug name)s?(, \d+ \w+( \w+)?)*: check them against the consult/,
    );
  });

  /** Chooses an item of the note's "More" menu as a vet does: the button, then the item. */
  async function more(name: string) {
    const button = await screen.findByRole('button', { name: 'More' });
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name }));
    // The menu closes (or goes, with the read view, when the editor opens).
    if (button.isConnected) expect(button.getAttribute('aria-expanded')).toBe('false');
  }

  it('one action bar: Copy, Print, the figures to check and More, whose list Escape closes', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    const bar = within(screen.getByRole('group', { name: 'Actions on the note' }));
    expect(bar.getAllByRole('button').map((b) => b.textContent)).toEqual(['Copy note', 'Print', 'More ▾']);
    expect(bar.getByRole('note').textContent).toMatch(/: check them against the consult/);
    // The rest is behind More, out of sight and out of the keyboard's way until asked for.
    expect(screen.queryByRole('button', { name: 'Rename' })).toBeNull();
    const button = bar.getByRole('button', { name: 'More' });
    fireEvent.click(button);
    const list = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Edit note',
      'Export .txt',
      'Export .rtf',
      'Export .pdf',
      'Get differentials from this note',
      'Rename',
      'Another document…',
      'Delete',
    ]);
    expect(document.activeElement).toBe(within(list).getByRole('button', { name: 'Edit note' }));
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(list.hidden).toBe(true);
    expect(document.activeElement).toBe(button);
  });

  it('shows no patient form once the consult is sent; the printed header names clinic, vet, patient, date and template', async () => {
    await useSession.getState().load();
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    expect(screen.queryByRole('button', { name: 'Change patient details' })).toBeNull();
    const header = document.querySelector('.print-header')!;
    await waitFor(() => expect(within(header as HTMLElement).getByText('Clinic')).toBeTruthy());
    const facts = [...header.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextSibling?.textContent]);
    const org = await api.org.get();
    const user = (await api.session.get()).user!;
    expect(facts.map(([term]) => term)).toEqual(['Clinic', 'Vet', 'Patient', 'Date', 'Template']);
    expect(Object.fromEntries(facts)).toMatchObject({ Clinic: org.name, Vet: user.name, Patient: 'Bella' });
  });

  it('renames a sent consult in this computer’s list only, and an empty name lists it under the patient again', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    await more('Rename');
    const field = screen.getByRole('textbox', { name: 'Name in the consults list' });
    expect(document.activeElement).toBe(field);
    expect(screen.getByText(/the service has the note under Bella/).id).toBe(field.getAttribute('aria-describedby'));
    fireEvent.change(field, { target: { value: '  Bella (Smith) – recheck in 2 weeks ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await screen.findByRole('heading', { level: 1, name: 'Bella (Smith) – recheck in 2 weeks' });
    // Kept by main (every window, and the next launch), and the patient is unchanged.
    expect(core.cache.consult(id)?.recording).toMatchObject({
      listName: 'Bella (Smith) – recheck in 2 weeks',
      patientName: 'Bella',
      description: 'vomiting',
    });
    expect((await api.consults.search({ query: 'recheck smith' })).ids).toEqual([id]);

    await more('Rename');
    fireEvent.change(screen.getByRole('textbox', { name: 'Name in the consults list' }), { target: { value: '   ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save name' }));
    await screen.findByRole('heading', { level: 1, name: 'Bella — vomiting' });
    expect(core.cache.consult(id)?.recording.listName).toBeNull();
  });

  it('exports .txt, .rtf and .pdf as main makes them, named by main', async () => {
    render(<NoteView id={id} />);
    for (const label of ['Export .txt', 'Export .rtf', 'Export .pdf']) await more(label);
    await waitFor(() => expect(downloads).toHaveLength(3));
    for (const [i, format] of (['txt', 'rtf', 'pdf'] as const).entries()) {
      const expected = await api.consults.export({ id, format });
      expect(downloads[i]!.name).toBe(expected.fileName);
      expect(downloads[i]!.name.endsWith(`.${format}`)).toBe(true);
      expect(downloads[i]!.blob.type).toBe(expected.mimeType);
      expect(new Uint8Array(await downloads[i]!.blob.arrayBuffer())).toEqual(new Uint8Array(expected.data));
    }
    expect(await downloads[0]!.blob.text()).toContain('Bella');
    expect(await downloads[1]!.blob.text()).toMatch(/^\{\\rtf/);
    expect(await downloads[2]!.blob.text()).toMatch(/^%PDF-/);
    expect(screen.getByText(`Exported: ${downloads[2]!.name}`)).toBeTruthy();
  });

  it('copies the note as text, HTML and RTF at once (main has no clipboard here), and says so', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy note' }));
    await screen.findByText('Copied');
    const formats = await api.consults.noteFormats({ id });
    expect(written).toEqual([{ 'text/plain': formats.text, 'text/html': formats.html, 'web text/rtf': formats.rtf }]);
    expect(formats.text).toContain('Bella');
    expect(formats.rtf).toMatch(/^\{\\rtf/);
    for (const heading of headingsOf(core.pipeline.note(id).note!)) {
      expect(formats.text).toContain(heading);
      expect(formats.html).toContain(heading);
    }
  });

  it('copies text and HTML where the window cannot write RTF, and says what is missing', async () => {
    TestClipboardItem.rtf = false;
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy note' }));
    await screen.findByText('Copied with its headings, but without RTF: this window cannot put RTF on the clipboard.');
    expect(written.map((w) => Object.keys(w))).toEqual([['text/plain', 'text/html']]);
  });

  // The vet's edit: the service's note with the words of its second section changed.
  const SAID = 'Bella vomited twice yesterday; bright and eating today.';
  const editOf = (note: string) => {
    const sections = splitSections(note);
    return joinSections(sections.map((s, i) => (i === 2 ? withBody(s, SAID, i === sections.length - 1) : s)));
  };
  /** The editor's boxes, by the headings they stand under. */
  const boxes = () =>
    screen.getAllByRole('textbox').filter((b) => b.closest('.note-sections')) as HTMLTextAreaElement[];
  let edited = '';

  it('edits the note section by section: its headings stay headings, and the edit is saved in main with an Edited badge', async () => {
    const original = core.pipeline.note(id).note!;
    edited = editOf(original);
    const headings = splitSections(original)
      .slice(1)
      .map((s) => s.heading);
    expect(headings.length).toBeGreaterThan(1);
    const first = render(<NoteView id={id} />);
    await more('Edit note');
    expect(screen.getByRole('group', { name: 'Edit note' })).toBeTruthy();
    // One box per section, named by its heading; no Markdown in any box.
    for (const h of headings) expect(screen.getByRole('textbox', { name: h })).toBeTruthy();
    for (const b of boxes()) expect(b.value).not.toMatch(/^#/m);
    fireEvent.change(screen.getByRole('textbox', { name: headings[1]! }), { target: { value: SAID } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.pipeline.note(id).editedNote).toBe(edited));
    const region = within(await screen.findByRole('region', { name: 'Note' }));
    expect(region.getAllByRole('heading').map((h) => h.textContent)).toEqual(headings);
    expect(region.getByText(SAID)).toBeTruthy();
    // The edit names who made it and when, from the consult's trail.
    const badge = () => document.querySelector('.note-view .row .badge')?.textContent;
    await waitFor(() => expect(badge()).toMatch(/^Edited by (you|Dr\. Demo Vet) at \d{1,2}:\d{2}/));
    first.unmount();

    render(<NoteView id={id} />);
    await within(await screen.findByRole('region', { name: 'Note' })).findByText(SAID);
    await waitFor(() => expect(document.querySelector('.note-view .row .badge')?.textContent).toMatch(/^Edited by /));
    // The whole trail, folded under the note.
    const history = screen.getByText('History').closest('details')!;
    fireEvent.click(screen.getByText('History'));
    history.open = true;
    history.dispatchEvent(new Event('toggle'));
    // Earlier tests of this file copied and exported the same consult: first and last are checked.
    await waitFor(() => {
      const actions = within(history)
        .getAllByRole('listitem')
        .map((li) => li.textContent?.split(' by ')[0]);
      expect([actions[0], actions[1], actions.at(-1)]).toEqual(['Recorded', 'Sent', 'Edited']);
    });
    expect(core.pipeline.note(id).note).not.toContain(SAID);
  });

  it('Discard changes leaves the note as it was, and keeps no draft', async () => {
    render(<NoteView id={id} />);
    await more('Edit note');
    fireEvent.change(boxes()[1]!, { target: { value: 'Something else' } });
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(within(await screen.findByRole('region', { name: 'Note' })).getByText(SAID)).toBeTruthy();
    expect(core.pipeline.note(id).editedNote).toBe(edited);
    await waitFor(async () => expect(await api.consults.draft({ id })).toBeNull());
  });

  it('keeps an edit as it is typed: leaving the note (even at once) and coming back opens it again; Revert puts the service’s note back in one click', async () => {
    const first = render(<NoteView id={id} />);
    await more('Edit note');
    fireEvent.change(boxes()[1]!, { target: { value: `${SAID}\nRecheck in a week.` } });
    const typed = editOf(edited).replace(SAID, `${SAID}\nRecheck in a week.`);
    // Left before the pause after typing: what was typed goes to main on the way out.
    first.unmount();
    await waitFor(async () => expect((await api.consults.draft({ id }))?.text).toBe(typed));

    render(<NoteView id={id} />);
    await screen.findByRole('group', { name: 'Edit note' });
    expect(boxes()[1]!.value).toBe(`${SAID}\nRecheck in a week.`);
    expect(screen.getByRole('status', { name: '' }).textContent ?? '').toMatch(
      /^Your changes from .+ were kept\. Save them, or discard them\.$/,
    );
    // The note itself is unchanged until Save.
    expect(core.pipeline.note(id).editedNote).toBe(edited);

    fireEvent.click(screen.getByRole('button', { name: 'Revert to the service’s note' }));
    expect(joinSections(splitSections(core.pipeline.note(id).note!))).toBe(core.pipeline.note(id).note);
    expect(boxes()[1]!.value).toBe(bodyShown(splitSections(core.pipeline.note(id).note!)[2]!));
    await waitFor(async () => expect((await api.consults.draft({ id }))?.text).toBe(core.pipeline.note(id).note));
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    await waitFor(async () => expect(await api.consults.draft({ id })).toBeNull());
  });

  it('a draft that cannot be read: the note is shown as saved, the damaged draft is kept aside, and the vet is told', async () => {
    const dir = join(core.options.dataDir, 'drafts');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.json`), '{"text": "half a dr');
    render(<NoteView id={id} />);
    await within(await screen.findByRole('region', { name: 'Note' })).findByText(SAID);
    expect(screen.queryByRole('group', { name: 'Edit note' })).toBeNull();
    // The file is moved aside before the vet is told, so the notice is waited for too.
    await waitFor(() => {
      expect(readdirSync(dir).filter((f) => f.startsWith(`${id}.json.unreadable-`))).toHaveLength(1);
      expect(core.appInfo().notices.map((n) => n.message)).toContain(
        "An unsaved edit of a note could not be read, so the service's note is shown. The damaged edit is kept aside in the app's data folder.",
      );
    });
  });

  it('copies the text the vet sees — the edit — in every flavour', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy note' }));
    await screen.findByText('Copied');
    expect(written).toHaveLength(1);
    for (const type of ['text/plain', 'text/html', 'web text/rtf'])
      expect(written[0]![type]).toContain('Bella vomited twice yesterday');
    expect(written[0]!['text/plain']).not.toMatch(/^#/m);
  });

  it('says when the clipboard refuses, and how to copy by hand', async () => {
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        write: () => Promise.reject(new Error('Write permission denied.')),
        writeText: () => Promise.reject(new Error('Write permission denied.')),
      },
    });
    try {
      render(<NoteView id={id} />);
      fireEvent.click(await screen.findByRole('button', { name: 'Copy note' }));
      expect((await screen.findByText(/could not be copied/)).textContent).toMatch(/Write permission denied.*Ctrl\+C/);
      expect(screen.queryByText('Copied')).toBeNull();
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: workingClipboard });
    }
  });

  it('sends the note the vet sees to the differentials panel in one click', async () => {
    render(<NoteView id={id} />);
    await more('Get differentials from this note');
    expect(useNav.getState().view).toEqual({
      name: 'ddx',
      consult: { id, patient: core.cache.consult(id)!.recording.patientName, note: edited },
    });
  });

  it('lists the answers kept with the consult, each opening again in the differentials panel', async () => {
    const kept = await api.consults.askDdx({
      id,
      input: 'Dog, 3 years, vomiting for 2 days after eating from the bin.',
    });
    render(<NoteView id={id} />);
    const list = await screen.findByRole('list', { name: 'Answers kept with this consult' });
    expect(list.textContent).toMatch(/^Differentials — asked \d{1,2}:\d\d(\s?[AP]M)? — Open$/);
    fireEvent.click(within(list).getByRole('button', { name: 'Open' }));
    expect(useNav.getState().view).toEqual({
      name: 'ddx',
      consult: { id, patient: core.cache.consult(id)!.recording.patientName, answerId: kept.answerId },
    });
  });

  it('goes back to the service’s original after asking', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Back to the original' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, back to the original' }));
    await waitFor(() => expect(core.pipeline.note(id).editedNote).toBeNull());
    await waitFor(() => expect(within(noteRegion()).queryByText(SAID)).toBeNull());
    await within(noteRegion()).findByRole('heading', { name: headingsOf(core.pipeline.note(id).note!)[0] });
    expect(screen.queryByText('Edited')).toBeNull();
  });

  it('plays the recording, and says why when its audio was deleted', async () => {
    render(<NoteView id={id} />);
    const audio = await waitFor(() => {
      const el = document.querySelector('audio');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(audio.getAttribute('src')).toBe(`/audio/${id}`);
    expect(audio.controls).toBe(true);

    await useSettings.getState().update({ retentionDays: 0 });
    await screen.findByText('The audio was deleted once the note was ready (Settings → Audio retention).');
    expect(core.pipeline.info(id)?.audioDeleted).toBe(true);
    expect(document.querySelector('audio')).toBeNull();
  });

  it('says a note is not ready yet, lets the patient details change until sent, and shows the note when main says it is ready', async () => {
    const later = await record('Max', 'itching');
    useNav.getState().go({ name: 'note', id: later });
    render(<NoteView id={later} />);
    await screen.findByText('The note is not ready yet: Choose a template to send');
    expect(screen.queryByRole('region', { name: 'Note' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Change patient details' }));
    fireEvent.change(screen.getByRole('textbox', { name: "Patient's name" }), { target: { value: 'Maximus' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Visit description (optional)' }), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save patient details' }));
    await screen.findByRole('heading', { level: 1, name: 'Maximus' });
    expect(core.cache.consult(later)?.recording).toMatchObject({ patientName: 'Maximus', description: null });

    await api.consults.submit({ id: later, templateId });
    await within(await screen.findByRole('region', { name: 'Note' }, { timeout: 15_000 })).findByRole('heading', {
      name: headingsOf(core.pipeline.note(later).note!)[0],
    });
  }, 20_000);

  it('shows the engine’s refusal of a new name once the consult is sent', async () => {
    // Sent (a session exists), then refused by the service: the job fails after sending.
    const sent = await record('Nala', 'ear check', 'tpl-that-does-not-exist');
    await waitFor(() => expect(core.pipeline.info(sent)?.state).toBe('failed'), { timeout: 15_000 });
    expect(core.pipeline.sent(sent)).toBe(true);
    render(<NoteView id={sent} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Change patient details' }));
    fireEvent.change(screen.getByRole('textbox', { name: "Patient's name" }), { target: { value: 'Simba' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save patient details' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      "The consult has been sent; the patient's name can no longer be changed.",
    );
    expect(core.cache.consult(sent)?.recording.patientName).toBe('Nala');
    expect(screen.getByRole('heading', { level: 1, name: 'Nala — ear check' })).toBeTruthy();
  }, 20_000);

  it('deletes the consult from its note, after asking, and goes back to the list', async () => {
    const gone = await record('Milo', 'cough', templateId);
    await waitForCompleted(gone);
    render(<NoteView id={gone} />);
    await screen.findByRole('region', { name: 'Note' });
    await more('Delete');
    // Asked first: Cancel keeps it.
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(core.cache.consult(gone)).toBeTruthy();
    await more('Delete');
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(core.cache.consult(gone)).toBeFalsy());
    // The engine forgets it before its answer reaches the window, which then goes back.
    await waitFor(() => expect(useNav.getState().view).toEqual({ name: 'consults' }));
  }, 20_000);

  it('says when the consult is gone, with the way back', async () => {
    render(<NoteView id="2020-01-01T00-00-00Z-000000" />);
    await screen.findByText(/This consult is not on this computer any more/);
    fireEvent.click(screen.getByRole('button', { name: '← Back to Consults' }));
    expect(useNav.getState().view).toEqual({ name: 'consults' });
  });
});
