// Reading the clinic's lists: bounded, once per item, ended by an empty page; a scribe put
// under a patient only where the service names the session; this computer's consults never
// listed again; the answers read tolerantly.
import { describe, expect, it } from 'vitest';
import { MAX_CANDIDATES, mergeClinic } from '../../../../src/main/core/clinic/merge.ts';
import { clinicMatches } from '../../../../src/shared/clinic.ts';
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

describe("a visit's candidate notes (the service does not say which note is whose)", () => {
  const at = (id: string, time: string, recordingSessionId: string | null = null): ScribeListItem => ({
    ...scribe(id, recordingSessionId),
    updatedAt: `2026-11-28T${time}:00.000Z`,
  });
  const visit = (id: string, patientName: string, time: string) => ({
    ...session(id, patientName),
    updatedAt: `2026-11-28T${time}:00.000Z`,
  });

  it('lists two pets seen together as two rows, each with both notes written then, and no note on its own', () => {
    const merged = mergeClinic({
      ...base,
      scribes: [at('s1', '07:28'), at('s2', '07:28'), at('old', '03:00')],
      recordingSessions: [visit('r1', 'Bella', '07:26'), visit('r2', 'Milo', '07:27')],
      local: none,
      noteWords: new Map([['s2', 'otitis externa']]),
    });
    expect(merged.map((c) => [c.key, c.candidates?.map((n) => n.key)])).toEqual([
      ['recording-session:r2', ['scribe:s1', 'scribe:s2']],
      ['recording-session:r1', ['scribe:s1', 'scribe:s2']],
      // Written hours before any visit: no visit's, listed by its date and template.
      ['scribe:old', undefined],
    ]);
    expect(merged[0]!.candidates!.every((n) => n.patientName === null && n.recordingSessionId === null)).toBe(true);
    // The search for the patient finds the visit with its notes; a word of a candidate's note too.
    expect(merged.filter((c) => clinicMatches(c, 'bella')).map((c) => c.key)).toEqual(['recording-session:r1']);
    expect(merged.filter((c) => clinicMatches(c, 'otitis')).map((c) => c.key)).toEqual([
      'recording-session:r2',
      'recording-session:r1',
    ]);
  });

  it('with the relay linking each note to its visit, is one row per visit exactly, with no candidates', () => {
    const merged = mergeClinic({
      ...base,
      linked: new Map([
        ['s1', 'r1'],
        ['s2', 'r2'],
      ]),
      scribes: [at('s1', '07:28'), at('s2', '07:28')],
      recordingSessions: [visit('r1', 'Bella', '07:26'), visit('r2', 'Milo', '07:27')],
      local: none,
    });
    expect(merged.map((c) => [c.key, c.patientName, c.candidates])).toEqual([
      ['scribe:s1', 'Bella', undefined],
      ['scribe:s2', 'Milo', undefined],
    ]);
  });

  it('offers none where more notes than a guess can help were written around the visit', () => {
    const many = Array.from({ length: MAX_CANDIDATES + 1 }, (_, i) => at(`s${i}`, '07:28'));
    const merged = mergeClinic({
      ...base,
      scribes: many,
      recordingSessions: [visit('r1', 'Bella', '07:26')],
      local: none,
    });
    expect(merged.find((c) => c.key === 'recording-session:r1')!.candidates).toBeUndefined();
    expect(merged.filter((c) => c.scribeId !== null)).toHaveLength(MAX_CANDIDATES + 1);
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
