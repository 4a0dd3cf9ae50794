// The Consults list with 10,000 consults on the real core: only the rows near the screen are in
// the page, yet the whole list is there: its height is the whole list's, a consult far down is
// reached by search and by scrolling, each row says its place in its day, and the row that holds
// the focus stays in the page while the list scrolls away from it.
// jsdom lays nothing out, so every row counts at the list's estimated height here; real layout
// is measured by `npm run bench:consults-list` in Chromium.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ownerOf } from '../../../../src/main/core/jobs/pipeline.ts';
import type { RecordingMeta } from '../../../../src/main/core/recordings/index.ts';
import { dayKey } from '../../../../src/renderer/src/lib/days.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { windowWithEngine } from '../../support/window.ts';

const COUNT = 10_000;
/** Far more rows than a screen and its margins hold, far fewer than the list. */
const BOUND = 40;
const NEWEST = Date.UTC(2026, 10, 20, 18, 0);

// Newest first: consult i started 37 minutes before consult i - 1, so a day holds about 39.
const startOf = (i: number) => NEWEST - i * 37 * 60_000;
const patientOf = (i: number) => `Pet${i} Family${i % 97}`;
const titleOf = (i: number) => `${patientOf(i)} — Check-up ${i % 7}`;

function meta(i: number, owner: RecordingMeta['owner']): RecordingMeta {
  const startedAt = new Date(startOf(i)).toISOString();
  return {
    id: `${startedAt.slice(0, 19).replace(/:/g, '-')}Z-${i.toString(16).padStart(6, '0')}`,
    startedAt,
    updatedAt: startedAt,
    finishedAt: startedAt,
    durationMs: 600_000,
    mimeType: 'audio/webm;codecs=opus',
    label: null,
    patientName: patientOf(i),
    description: `Check-up ${i % 7}`,
    templateId: null,
    state: 'finished',
    bytes: 1000,
    chunks: 600,
    durationFixed: true,
    owner,
    consentAt: null,
    listName: null,
  };
}

describe('ConsultsView with 10,000 consults', () => {
  let core: AppCore;

  beforeAll(async () => {
    ({ core } = await windowWithEngine({ signIn: true }));
    // Written where the recording store keeps them and told to the core, as a recording made
    // outside the window's calls is: 10,000 made through the recorder would take minutes.
    // The signed-in vet's, as the recorder makes them; read back through the store, where the
    // access gate learns each consult's owner.
    const dir = join(core.options.dataDir, 'recordings');
    const owner = ownerOf(core.session.state().user!, core.serviceKey());
    for (let i = 0; i < COUNT; i++) {
      const m = meta(i, owner);
      mkdirSync(join(dir, m.id), { recursive: true });
      writeFileSync(join(dir, m.id, 'meta.json'), JSON.stringify(m));
    }
    await core.recordings.list();
    // jsdom does not scroll; the list asks the window to (to stay where it is when it opens).
    window.scrollTo = ((x: ScrollToOptions | number, y?: number) =>
      scrollPage(typeof x === 'number' ? (y ?? 0) : (x.top ?? window.scrollY))) as typeof window.scrollTo;
  }, 60_000);
  afterEach(() => {
    cleanup();
    scrollPage(0);
  });
  afterAll(async () => {
    await core.stop();
  });

  const titles = () =>
    screen.queryAllByRole('article').map((a) => within(a).getByRole('heading', { level: 3 }).textContent);
  const list = () => document.querySelector<HTMLElement>('.consult-window')!;
  /** Scrolls the page as the browser would: the offset, then the event. */
  function scrollPage(y: number): void {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
    Object.defineProperty(window, 'pageYOffset', { configurable: true, value: y });
    fireEvent.scroll(window);
  }

  it('renders the newest rows only, in order, with the whole list’s height and each row’s place in its day', async () => {
    render(<ConsultsView />);
    await screen.findByRole('article', { name: titleOf(0) });
    const shown = titles();
    expect(shown.length).toBeGreaterThan(3);
    expect(shown.length).toBeLessThan(BOUND);
    expect(shown).toEqual(shown.map((_, i) => titleOf(i)));
    // The page is as tall as every row would make it: the scroll bar says how long the list is.
    expect(parseFloat(list().style.height)).toBeGreaterThan(COUNT * 100);

    const firstDay = dayKey(new Date(startOf(0)));
    let inFirstDay = 0;
    while (dayKey(new Date(startOf(inFirstDay))) === firstDay) inFirstDay++;
    const second = screen.getByRole('article', { name: titleOf(1) }).closest('li')!;
    expect(second.getAttribute('aria-posinset')).toBe('2');
    expect(second.getAttribute('aria-setsize')).toBe(String(inFirstDay));
  });

  it('finds a consult far down by search, and Show all brings back the newest rows', async () => {
    render(<ConsultsView />);
    await screen.findByRole('article', { name: titleOf(0) });
    expect(screen.queryByRole('article', { name: titleOf(COUNT - 2) })).toBeNull();
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: patientOf(COUNT - 2) } });
    await waitFor(() => expect(titles()).toEqual([titleOf(COUNT - 2)]));
    expect(screen.getByRole('status').textContent).toBe(`1 of ${COUNT} consults. Show all`);
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(titles()[0]).toBe(titleOf(0));
    expect(titles().length).toBeLessThan(BOUND);
  });

  it('scrolled to the bottom, shows the oldest consults and no longer the newest', async () => {
    render(<ConsultsView />);
    await screen.findByRole('article', { name: titleOf(0) });
    scrollPage(parseFloat(list().style.height) - window.innerHeight);
    await screen.findByRole('article', { name: titleOf(COUNT - 1) });
    expect(screen.queryByRole('article', { name: titleOf(0) })).toBeNull();
    const shown = titles();
    expect(shown.length).toBeLessThan(BOUND);
    expect(shown.at(-1)).toBe(titleOf(COUNT - 1));
    // In the middle, the rows around the middle.
    scrollPage(parseFloat(list().style.height) / 2);
    await waitFor(() => expect(titles().some((t) => t === titleOf(COUNT / 2))).toBe(true));
  });

  it('keeps the row holding the focus in the page while the list scrolls away, and lets it go once the focus leaves', async () => {
    render(<ConsultsView />);
    const first = await screen.findByRole('article', { name: titleOf(0) });
    const remove = within(first).getByRole('button', { name: 'Delete' });
    remove.focus();
    scrollPage(parseFloat(list().style.height) / 2);
    await waitFor(() => expect(titles()).toContain(titleOf(COUNT / 2)));
    expect(screen.getByRole('article', { name: titleOf(0) })).toBe(first);
    expect(document.activeElement).toBe(remove);
    expect(titles().length).toBeLessThan(BOUND);

    remove.blur();
    scrollPage(parseFloat(list().style.height) / 4);
    await waitFor(() => expect(screen.queryByRole('article', { name: titleOf(0) })).toBeNull());
  });
});
