// Reading the clinic's lists: bounded, once per item, ended by an empty page; a scribe put
// under a patient only where the service names the session; this computer's consults never
// listed again; the answers read tolerantly.
import { describe, expect, it } from 'vitest';
import { mergeClinic } from '../../../../src/main/core/clinic/merge.ts';
import { MAX_ITEMS, MAX_PAGES, PAGE_LIMIT, readAllPages } from '../../../../src/main/core/service/pages.ts';
import {
  parseScribeListPage,
  parseRecordingSessionListPage,
  scribeRecordingSessionId,
  type ListPage,
  type ScribeListItem,
} from '../../../../src/shared/service/lists.ts';

const item = (id: string) => ({ id });

function pager(pages: (page: number) => ListPage<{ id: string }>) {
  const asked: number[] = [];
  return {
    asked,
    fetch: (page: number, limit: number) => {
      expect(limit).toBe(PAGE_LIMIT);
      asked.push(page);
      return Promise.resolve(pages(page));
    },
  };
}

describe('reading a paged list', () => {
  it('follows has_next to the end', async () => {
    const p = pager((n) => ({ items: n <= 3 ? [item(`a${n}`)] : [], hasNext: n < 3 }));
    expect(await readAllPages(p.fetch)).toEqual({ items: [item('a1'), item('a2'), item('a3')], truncated: false });
    expect(p.asked).toEqual([1, 2, 3]);
  });

  it('stops at an empty page that says has_next', async () => {
    const p = pager((n) => ({ items: n === 1 ? [item('a')] : [], hasNext: true }));
    expect(await readAllPages(p.fetch)).toEqual({ items: [item('a')], truncated: false });
    expect(p.asked).toEqual([1, 2]);
  });

  it('keeps an item that comes on two pages once', async () => {
    const p = pager((n) => ({ items: n === 1 ? [item('a'), item('b')] : [item('b'), item('c')], hasNext: n === 1 }));
    expect((await readAllPages(p.fetch)).items).toEqual([item('a'), item('b'), item('c')]);
  });

  it('never reads for ever: a list that always says has_next stops at the page bound', async () => {
    const p = pager(() => ({ items: [item('same')], hasNext: true }));
    expect(await readAllPages(p.fetch)).toEqual({ items: [item('same')], truncated: true });
    expect(p.asked).toHaveLength(MAX_PAGES);
  });

  it('stops at the item bound with thousands of items', async () => {
    const p = pager((n) => ({
      items: Array.from({ length: PAGE_LIMIT }, (_, i) => item(`${n}-${i}`)),
      hasNext: true,
    }));
    const read = await readAllPages(p.fetch);
    expect(read.items).toHaveLength(MAX_ITEMS);
    expect(read.truncated).toBe(true);
    expect(p.asked).toHaveLength(MAX_ITEMS / PAGE_LIMIT + 1);
  });

  it('without has_next, a short page is the last', async () => {
    const p = pager(() => ({ items: [item('a')], hasNext: undefined }));
    expect((await readAllPages(p.fetch)).items).toEqual([item('a')]);
    expect(p.asked).toEqual([1]);
  });
});

const scribe = (id: string, recordingSessionId: string | null = null): ScribeListItem => ({
  id,
  updatedAt: '2026-11-20T10:00:00.000Z',
  templateId: 't1',
  status: 'scribed',
  recordingSessionId,
});
const session = (id: string, patientName: string) => ({
  id,
  updatedAt: '2026-11-19T10:00:00.000Z',
  patientName,
  description: null,
});
const none = { recordingSessionIds: new Set<string>(), scribeIds: new Set<string>() };
const base = {
  templateNames: new Map([['t1', 'SOAP']]),
  linked: new Map<string, string>(),
  keptNotes: new Set<string>(),
};

describe('merging the lists', () => {
  it('puts a note under its patient only where the service names the session; never guesses', () => {
    const merged = mergeClinic({
      ...base,
      scribes: [scribe('s1', 'r1'), scribe('s2')],
      recordingSessions: [session('r1', 'Bella'), session('r2', 'Milo')],
      local: none,
    });
    expect(merged.map((c) => [c.key, c.patientName, c.templateName])).toEqual([
      ['scribe:s1', 'Bella', 'SOAP'],
      ['scribe:s2', null, 'SOAP'],
      ['recording-session:r2', 'Milo', null],
    ]);
  });

  it('uses a link learnt from GET /scribe/get', () => {
    const merged = mergeClinic({
      ...base,
      linked: new Map([['s2', 'r2']]),
      scribes: [scribe('s2')],
      recordingSessions: [session('r2', 'Milo')],
      local: none,
    });
    expect(merged.map((c) => [c.key, c.patientName])).toEqual([['scribe:s2', 'Milo']]);
  });

  it("leaves out this computer's sessions and scribes, further documents included", () => {
    const merged = mergeClinic({
      ...base,
      scribes: [scribe('mine'), scribe('doc', 'r-mine'), scribe('theirs')],
      recordingSessions: [session('r-mine', 'Bella'), session('r2', 'Milo')],
      local: { recordingSessionIds: new Set(['r-mine']), scribeIds: new Set(['mine']) },
    });
    expect(merged.map((c) => c.key)).toEqual(['scribe:theirs', 'recording-session:r2']);
  });
});

describe('reading the list answers', () => {
  it('reads the published page and leaves out items without an id', () => {
    const page = parseScribeListPage({
      items: [
        {
          public_id: 's1',
          updated_at: '2026-11-20T10:00:00Z',
          transcript_public_id: null,
          template_public_id: 't1',
          organization_public_id: 'o',
          status: 'scribed',
        },
        { status: 'scribed' },
        'nonsense',
      ],
      has_next: false,
      current_page: 1,
      items_per_page: 50,
    });
    expect(page).toEqual({
      items: [
        { id: 's1', updatedAt: '2026-11-20T10:00:00Z', templateId: 't1', status: 'scribed', recordingSessionId: null },
      ],
      hasNext: false,
    });
  });

  it('reads a session link where an answer gives one, inside { data } too', () => {
    expect(
      parseScribeListPage({ data: { items: [{ id: 's', recording_session_public_id: 'r' }] } }).items[0]
        ?.recordingSessionId,
    ).toBe('r');
    expect(scribeRecordingSessionId({ data: { public_id: 's', recording_session_public_id: 'r' } })).toBe('r');
    expect(scribeRecordingSessionId({ public_id: 's', recording_session_public_id: 7 })).toBeNull();
  });

  it('reads sessions with a date in Unix seconds', () => {
    expect(
      parseRecordingSessionListPage([{ public_id: 'r', created_at: 1_764_000_000, patient_name: 'Bella' }]).items,
    ).toEqual([
      { id: 'r', updatedAt: new Date(1_764_000_000_000).toISOString(), patientName: 'Bella', description: null },
    ]);
  });
});
