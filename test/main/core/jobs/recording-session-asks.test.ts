// Which session of GET /recording-sessions/all a create whose answer was lost made: the same
// patient and description, changed near the time it was asked, not one this computer knows;
// the nearest of several; none when nothing fits.
import { describe, expect, it } from 'vitest';
import {
  ASK_WINDOW_MS,
  matchAsk,
  type RecordingSessionAsk,
} from '../../../../src/main/core/jobs/recording-session-asks.ts';
import type { RecordingSessionListItem } from '../../../../src/shared/service/lists.ts';

const AT = Date.parse('2026-11-28T09:00:00Z');
const ask: RecordingSessionAsk = {
  id: 'ask-1',
  recordingId: 'rec-1',
  patientName: 'Bella',
  description: '',
  recordingSessionDate: '2026-11-28',
  askedAt: AT,
  userId: 'u1',
  organizationId: 'o1',
  service: 'sandbox',
};
const session = (id: string, offsetMs: number, patientName = 'Bella', description: string | null = null) =>
  ({
    id,
    patientName,
    description,
    updatedAt: new Date(AT + offsetMs).toISOString(),
  }) satisfies RecordingSessionListItem;

describe('matchAsk', () => {
  it('takes the nearest session of the same patient and description within the window, never one known here', () => {
    const list = [session('far', 5 * 60_000), session('near', 800), session('known', 100)];
    expect(matchAsk(ask, list, new Set(['known']))?.id).toBe('near');
  });

  it('takes none of another patient, another description, or outside the window', () => {
    const list = [
      session('other', 100, 'Rex'),
      session('visit', 100, 'Bella', 'vomiting'),
      session('late', ASK_WINDOW_MS + 1000),
      session('early', -ASK_WINDOW_MS - 1000),
    ];
    expect(matchAsk(ask, list, new Set())).toBeNull();
    expect(matchAsk({ ...ask, description: 'vomiting' }, list, new Set())?.id).toBe('visit');
  });
});
