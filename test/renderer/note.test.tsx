// The note view against the real core and its sandbox: the sandbox's own note rendered with
// its headings, an edit saved in main and kept, Copy and the exports using the text the vet
// sees, the way to the differentials panel, the recording, and a note that is not ready yet.
// jsdom has neither a clipboard nor object URLs: those two browser APIs are the only stand-ins.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import type { NoteView as NoteViewModule } from '../../src/renderer/src/features/consults/note-view.tsx';
import type { useNav as useNavModule } from '../../src/renderer/src/stores/nav.ts';
import { exportFileName, parseNote, toPlainText } from '../../src/renderer/src/features/consults/note-format.ts';
import type { Api } from '../../src/shared/ipc.ts';

describe('note text', () => {
  const text = 'Sandbox note — first line.\n\n# Consult note\nConsult: Rex\nRecording: r.webm\n\n## History\nLimping for two days.\n\n## Plan\n- Rest\n- Recheck in 5 days\n### Owner #\nInformed.\n## C# is not a heading end\n';

  it('reads headings, paragraphs (line breaks kept) and lists', () => {
    expect(parseNote(text)).toEqual([
      { kind: 'paragraph', lines: ['Sandbox note — first line.'] },
      { kind: 'heading', level: 1, text: 'Consult note' },
      { kind: 'paragraph', lines: ['Consult: Rex', 'Recording: r.webm'] },
      { kind: 'heading', level: 2, text: 'History' },
      { kind: 'paragraph', lines: ['Limping for two days.'] },
      { kind: 'heading', level: 2, text: 'Plan' },
      { kind: 'list', items: ['Rest', 'Recheck in 5 days'] },
      { kind: 'heading', level: 3, text: 'Owner' },
      { kind: 'paragraph', lines: ['Informed.'] },
      { kind: 'heading', level: 2, text: 'C# is not a heading end' },
    ]);
    expect(parseNote('#not a heading\r\n<b>bold</b>')).toEqual([{ kind: 'paragraph', lines: ['#not a heading', '<b>bold</b>'] }]);
  });

  it('writes plain text without heading marks', () => {
    const plain = toPlainText(text);
    expect(plain).not.toMatch(/^#/m);
    expect(plain).toContain('Consult note\n============\nConsult: Rex\nRecording: r.webm\n');
    expect(plain).toContain('History\n-------\nLimping for two days.\n');
    expect(plain).toContain('- Rest\n- Recheck in 5 days\n');
  });

  it('names export files from the title and the start time', () => {
    const at = new Date(2026, 2, 5, 10, 42).toISOString();
    expect(exportFileName('Rex — limping', at, 'md')).toBe('Rex-limping-2026-03-05-1042.md');
    expect(exportFileName('../../etc/passwd', at, 'txt')).toBe('etc-passwd-2026-03-05-1042.txt');
    expect(exportFileName('Consult at 10:42', at, 'txt')).toBe('Consult-at-10-42-2026-03-05-1042.txt');
    expect(exportFileName('///', 'not a date', 'md')).toBe('consult.md');
  });
});

const CHUNKS = join(import.meta.dirname, '../fixtures/audio/mediarecorder-5s');
const chunks = readdirSync(CHUNKS)
  .filter((f) => f.endsWith('.bin'))
  .sort()
  .map((f) => new Uint8Array(readFileSync(join(CHUNKS, f))));

describe('NoteView, on the real core', () => {
  let core: AppCore;
  let api: Api;
  let NoteView: typeof NoteViewModule;
  let useNav: typeof useNavModule;
  let templateId: string;
  let id: string;
  const copied: string[] = [];
  const downloads: { name: string; blob: Blob }[] = [];
  const blobs: Blob[] = [];

  async function record(label: string, template?: string): Promise<string> {
    const started = await api.recording.start({ mimeType: 'audio/webm;codecs=opus', label, ...(template ? { templateId: template } : {}) });
    for (const [seq, data] of chunks.entries()) await api.recording.chunk({ id: started.id, seq, data, elapsedMs: (seq + 1) * 1000 });
    await api.recording.stop({ id: started.id, durationMs: chunks.length * 1000 });
    return started.id;
  }

  const waitForCompleted = (consult: string) =>
    waitFor(() => expect(core.pipeline.info(consult)?.state).toBe('completed'), { timeout: 15_000 });

  beforeAll(async () => {
    const { installRealBridge } = await import('./support/real-bridge.ts');
    ({ core } = await installRealBridge({ signIn: true }));
    ({ api } = await import('../../src/renderer/src/api.ts'));
    ({ NoteView } = await import('../../src/renderer/src/features/consults/note-view.tsx'));
    ({ useNav } = await import('../../src/renderer/src/stores/nav.ts'));
    templateId = (await api.templates.list({ page: 1 })).items[0]!.id;
    id = await record('Bella — vomiting', templateId);
    await waitForCompleted(id);

    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (t: string) => void copied.push(t) } });
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      blobs.push(blob as Blob);
      return `blob:test/${blobs.length}`;
    };
    URL.revokeObjectURL = () => {};
    // The download link is clicked and taken away at once: note what it would have saved.
    document.addEventListener('click', (e) => {
      if (e.target instanceof HTMLAnchorElement && e.target.download) {
        e.preventDefault();
        downloads.push({ name: e.target.download, blob: blobs[Number(e.target.href.split('/').pop()) - 1]! });
      }
    });
  }, 30_000);
  afterEach(cleanup);
  afterAll(async () => {
    await core.stop();
  });

  const noteRegion = () => screen.getByRole('region', { name: 'Note' });

  it('renders the sandbox note with its headings in a region named Note', async () => {
    render(<NoteView id={id} />);
    await screen.findByRole('region', { name: 'Note' });
    const original = core.pipeline.note(id).note!;
    const region = within(noteRegion());
    const title = /^# (.+)$/m.exec(original)![1]!;
    const sections = [...original.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(sections.length).toBeGreaterThan(1);
    expect(region.getByRole('heading', { level: 2, name: title })).toBeTruthy();
    expect(region.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(sections);
    expect(region.getByText(/^Sandbox note — generated without speech recognition/)).toBeTruthy();
    // No markdown marks left on screen.
    expect(noteRegion().textContent).not.toMatch(/(^|\s)##? /);
    expect(screen.getByRole('heading', { level: 1, name: 'Bella — vomiting' })).toBeTruthy();
    expect(screen.queryByText('Edited')).toBeNull();
  });

  it('exports the note as .md (as written) and .txt (without heading marks), named from the title and date', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Export .md' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export .txt' }));
    expect(downloads.map((d) => d.name)).toEqual([
      expect.stringMatching(/^Bella-vomiting-\d{4}-\d{2}-\d{2}-\d{4}\.md$/),
      expect.stringMatching(/^Bella-vomiting-\d{4}-\d{2}-\d{2}-\d{4}\.txt$/),
    ]);
    const original = core.pipeline.note(id).note!;
    expect(await downloads[0]!.blob.text()).toBe(original);
    const txt = await downloads[1]!.blob.text();
    expect(txt).not.toMatch(/^#/m);
    expect(txt).toContain(/^## (.+)$/m.exec(original)![1]!);
  });

  const edited = '# Gastritis, mild\nBella vomited twice yesterday; bright and eating today.\n\n## Plan\nBland diet for three days.\n';

  it('saves an edit in main, shows it with an Edited badge, and keeps it for next time', async () => {
    const first = render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit note' }));
    const box = screen.getByRole('textbox', { name: 'Edit note' }) as HTMLTextAreaElement;
    expect(box.value).toBe(core.pipeline.note(id).note);
    fireEvent.change(box, { target: { value: edited } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(core.pipeline.note(id).editedNote).toBe(edited));
    await within(await screen.findByRole('region', { name: 'Note' })).findByRole('heading', { level: 2, name: 'Gastritis, mild' });
    expect(screen.getByText('Edited')).toBeTruthy();
    first.unmount();

    render(<NoteView id={id} />);
    await within(await screen.findByRole('region', { name: 'Note' })).findByRole('heading', { level: 2, name: 'Gastritis, mild' });
    expect(screen.getByText('Edited')).toBeTruthy();
    expect(core.pipeline.note(id).note).toMatch(/^Sandbox note/);
  });

  it('Cancel leaves the note as it was', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit note' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Edit note' }), { target: { value: 'Something else' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(within(noteRegion()).getByRole('heading', { name: 'Gastritis, mild' })).toBeTruthy();
    expect(core.pipeline.note(id).editedNote).toBe(edited);
  });

  it('copies the text the vet sees — the edit — as plain text, and says so', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Copy note' }));
    await screen.findByText('Copied');
    expect(copied).toEqual([toPlainText(edited)]);
    expect(copied[0]).not.toMatch(/^#/m);
  });

  it('says when the clipboard refuses, and how to copy by hand', async () => {
    const working = navigator.clipboard;
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('Write permission denied.')) } });
    try {
      render(<NoteView id={id} />);
      fireEvent.click(await screen.findByRole('button', { name: 'Copy note' }));
      expect((await screen.findByText(/could not be copied/)).textContent).toMatch(/Write permission denied.*Ctrl\+C/);
      expect(screen.queryByText('Copied')).toBeNull();
    } finally {
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: working });
    }
  });

  it('sends the note the vet sees to the differentials panel in one click', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Get differentials from this note' }));
    expect(useNav.getState().view).toEqual({ name: 'ddx', prefill: edited });
  });

  it('goes back to the service’s original after asking', async () => {
    render(<NoteView id={id} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Back to the original' }));
    fireEvent.click(screen.getByRole('button', { name: 'Yes, back to the original' }));
    await waitFor(() => expect(core.pipeline.note(id).editedNote).toBeNull());
    await within(noteRegion()).findByText(/^Sandbox note — generated/);
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

    const { useSettings } = await import('../../src/renderer/src/stores/settings.ts');
    await useSettings.getState().update({ retentionDays: 0 });
    await screen.findByText('The audio was deleted once the note was ready (Settings → Audio retention).');
    expect(core.pipeline.info(id)?.audioDeleted).toBe(true);
    expect(document.querySelector('audio')).toBeNull();
  });

  it('says a note is not ready yet, and shows it as soon as main says it is', async () => {
    const later = await record('Max — itching');
    useNav.getState().go({ name: 'note', id: later });
    render(<NoteView id={later} />);
    await screen.findByText('The note is not ready yet: Choose a template to send');
    expect(screen.queryByRole('region', { name: 'Note' })).toBeNull();
    await api.consults.submit({ id: later, templateId });
    await within(await screen.findByRole('region', { name: 'Note' }, { timeout: 15_000 })).findByText(/^Sandbox note — generated/);
  }, 20_000);

  it('says when the consult is gone, with the way back', async () => {
    render(<NoteView id="2020-01-01T00-00-00Z-000000" />);
    await screen.findByText(/This consult is not on this computer any more/);
    fireEvent.click(screen.getByRole('button', { name: '← Back to Consults' }));
    expect(useNav.getState().view).toEqual({ name: 'consults' });
  });
});
