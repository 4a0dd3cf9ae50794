// The Consults view kept by main's events, on the real core: opening it again asks main only
// whether anything was missed (`consults:revision`), and reads the whole list (`consults:list`)
// only when something was: an event lost on the way, another engine, or another vet signed in.
// A recording made, paused or stopped is announced like any other change.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { ownerOf } from '../../../../src/main/core/jobs/pipeline.ts';
import { OTHER_ACCOUNT } from '../../../../src/sandbox/state.ts';
import { recordedAudio } from '../../support/recorded-consult.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { consultsIndex, useConsults } from '../../../../src/renderer/src/stores/consults.ts';
import { windowWithEngine, type WindowCall } from '../../support/window.ts';
import { consult, job, recording } from '../../support/consult-info.ts';
import { api } from '../../../../src/renderer/src/api.ts';

const { chunks } = recordedAudio;

describe('ConsultsView fed by events', () => {
  let core: AppCore;
  /** The channels the window called, in order. */
  let calls: WindowCall[];
  const lists = () => calls.filter((c) => c.channel === 'consults:list').length;

  beforeAll(async () => {
    ({ core, calls } = await windowWithEngine({ signIn: true }));
  }, 30_000);
  afterEach(cleanup);
  afterAll(async () => {
    await core.stop();
  });

  /** A finished recording written by the engine itself, not through the window's calls. */
  async function recordedByEngine(patientName: string): Promise<string> {
    const meta = await core.recordings.start({
      mimeType: 'audio/webm;codecs=opus',
      patientName,
      description: 'limping',
      owner: ownerOf(core.session.state().user!, core.serviceKey()),
    });
    for (const [seq, data] of chunks.entries()) await core.recordings.appendChunk(meta.id, seq, data, (seq + 1) * 1000);
    await core.recordings.finish(meta.id, { durationMs: 5000 });
    return meta.id;
  }

  /** Opens the view and waits until main's check (and any read it led to) is answered. */
  async function open(): Promise<void> {
    const before = calls.length;
    render(<ConsultsView />);
    await waitFor(() => expect(calls.slice(before).map((c) => c.channel)).toContain('consults:revision'));
    await waitFor(() => expect(useConsults.getState().loaded).toBe(true));
    // A read the check led to is answered before the view is looked at.
    await new Promise((r) => setTimeout(r, 100));
  }

  it('shows a change announced while it was closed without reading the list again; reads it after a missed change', async () => {
    const bella = await recordedByEngine('Bella');
    await open();
    expect(lists()).toBe(1);
    await screen.findByRole('article', { name: 'Bella — limping' });
    cleanup();

    // Renamed while the view is closed: main announces it, the window's copy hears it.
    await api.consults.update({ id: bella, listName: 'Bella Smith' });
    await open();
    expect(screen.getByText('Bella Smith')).toBeTruthy();
    expect(lists()).toBe(1);
    cleanup();

    // Opened again with nothing changed: only the check.
    await open();
    expect(lists()).toBe(1);
    cleanup();

    // A recording made and stopped while the view is closed: its events keep the copy whole.
    await recordedByEngine('Rex');
    await open();
    await screen.findByRole('article', { name: 'Rex — limping' });
    expect(lists()).toBe(1);
    cleanup();

    // An event lost on the way (the window away): main's count and the copy's differ.
    const lost = useConsults.getState().revision!;
    useConsults.setState({ revision: { ...lost, revision: lost.revision - 1 } });
    await open();
    expect(lists()).toBe(2);
    expect(useConsults.getState().revision).toEqual(await api.consults.revision());
    cleanup();

    // Another engine (restarted) answers: read again.
    useConsults.setState({ revision: { ...lost, engine: 'an engine before this one' } });
    await open();
    expect(lists()).toBe(3);
  }, 30_000);

  it('keeps the order worked out while no consult comes, goes or moves, and counts what the header shows', async () => {
    const at = (id: string, hour: number, state: 'recorded' | 'scribe_requested' | 'completed', by: string | null) =>
      consult(
        recording({
          id,
          startedAt: `2026-03-05T${String(hour).padStart(2, '0')}:00:00.000Z`,
          recordedBy:
            by === null
              ? null
              : { userId: by, organizationId: 'org', email: `${by}@clinic.test`, name: by, service: 'sandbox' },
        }),
        job({ recordingId: id, state }),
      );
    const first = {
      a: at('a', 9, 'recorded', 'vet-1'),
      b: at('b', 11, 'scribe_requested', null),
      c: at('c', 10, 'completed', 'vet-2'),
    };
    const one = consultsIndex(first);
    expect(one.order).toEqual(['b', 'c', 'a']);
    expect(one.sending).toBe(1);
    expect([...one.underWayBy].sort()).toEqual([
      [null, 1],
      ['vet-1', 1],
    ]);
    expect(consultsIndex(first)).toBe(one);

    // A consult's progress: the same order, the same array; the consult as it is now.
    const progressed = { ...first, a: at('a', 9, 'scribe_requested', 'vet-1') };
    const two = consultsIndex(progressed);
    expect(two.order).toBe(one.order);
    expect(two.sorted[2]).toBe(progressed.a);
    expect(two.sending).toBe(0);

    // One comes, one goes: a new order.
    const came = { ...progressed, d: at('d', 12, 'recorded', 'vet-2') };
    expect(consultsIndex(came).order).toEqual(['d', 'b', 'c', 'a']);
    const { b: _gone, ...went } = came;
    const four = consultsIndex(went);
    expect(four.order).toEqual(['d', 'c', 'a']);
    expect(four.starts).toEqual(['2026-03-05T12:00:00.000Z', '2026-03-05T10:00:00.000Z', '2026-03-05T09:00:00.000Z']);
    // As many as before, but not the same ones.
    const swapped = { ...progressed, e: at('e', 8, 'completed', null) };
    delete (swapped as Record<string, unknown>)['b'];
    expect(consultsIndex(swapped).order).toEqual(['c', 'a', 'e']);
  });

  it('after another vet signs in, shows only their consults', async () => {
    await open();
    expect(screen.getByText('Bella Smith')).toBeTruthy();
    cleanup();
    const reads = lists();
    await core.session.signOut('user');
    await core.session.signIn(OTHER_ACCOUNT.email, OTHER_ACCOUNT.password);
    await open();
    expect(lists()).toBe(reads + 1);
    await waitFor(() => expect(screen.queryByText('Bella Smith')).toBeNull());
    expect(screen.queryByRole('article', { name: 'Rex — limping' })).toBeNull();
  }, 30_000);
});
