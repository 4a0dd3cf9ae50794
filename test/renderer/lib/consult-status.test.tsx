// What the window says of a consult, as the pure functions it is worked out by: the status
// sentence and badge of every pipeline state, a consult's title and durations, and the days the
// Consults list groups and filters by.
import { cleanup, render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  clockTime,
  consultStatus,
  consultTitle,
  formatDuration,
  minutesWords,
  needsPatientName,
  overdueText,
} from '../../../src/renderer/src/lib/consult-status.ts';
import { filterConsults } from '../../../src/renderer/src/lib/consult-filter.ts';
import { dayHeading, dayKey, groupByDay } from '../../../src/renderer/src/lib/days.ts';
import { badgeWord, StatusBadge } from '../../../src/renderer/src/features/consult-list/status-badge.tsx';
import type { RecordingInfo } from '../../../src/shared/ipc.ts';
import type { JobInfo } from '../../../src/shared/jobs.ts';
import { consult, job, recording } from '../support/consult-info.ts';

const status = (r: Partial<RecordingInfo>, j: Partial<JobInfo> | null) =>
  consultStatus(consult(recording(r), j === null ? null : job(j)));

describe('consultStatus', () => {
  it('says a recording is still going, paused or not', () => {
    expect(status({ state: 'recording' }, null)).toEqual({ text: 'Recording…', badge: 'Recording', tone: 'progress' });
    expect(status({ state: 'paused' }, null)).toMatchObject({ text: 'Recording… (paused)', tone: 'progress' });
  });

  it('asks the vet to act on a recording without a job', () => {
    expect(status({ state: 'recovered' }, null)).toMatchObject({
      text: 'Recovered after the app closed',
      tone: 'warning',
    });
    expect(status({ state: 'finished' }, null)).toMatchObject({ text: 'Choose a template to send', tone: 'warning' });
  });

  it('names each step of the pipeline', () => {
    expect(status({}, { state: 'recorded' })).toMatchObject({ text: 'Getting ready to send…', tone: 'progress' });
    expect(status({}, { state: 'recording_session_created' })).toMatchObject({
      text: 'Waiting to upload',
      tone: 'progress',
    });
    expect(status({}, { state: 'upload_url', bytesSent: 0 })).toMatchObject({
      text: 'Waiting to upload',
      tone: 'progress',
    });
    expect(status({}, { state: 'uploaded' })).toMatchObject({
      text: 'Uploaded — asking for the note…',
      tone: 'progress',
    });
  });

  it('names the vet a note waits for: its owner, or the colleague who asked again', () => {
    const owner = {
      userId: 'u1',
      organizationId: 'o1',
      name: 'Dr. Demo Vet',
      email: 'demo@vetscribe.test',
      service: 's',
    };
    expect(status({ recordedBy: owner }, { state: 'uploaded', waitingFor: 'owner' }).text).toBe(
      'Waiting for Dr. Demo Vet to sign in: it is sent with their account only',
    );
    const colleague = { userId: 'u2', name: 'Dr. Colleague Vet', email: 'colleague@vetscribe.test' };
    expect(status({ recordedBy: owner }, { state: 'uploaded', waitingFor: 'owner', askedBy: colleague }).text).toBe(
      'Waiting for Dr. Colleague Vet to sign in: it is sent with their account only',
    );
  });

  it('gives the upload progress as a percentage and a fraction', () => {
    expect(status({}, { state: 'upload_url', bytesSent: 420, bytesTotal: 1000 })).toEqual({
      text: 'Uploading 42%',
      badge: 'Uploading',
      tone: 'progress',
      progress: 0.42,
    });
    expect(status({}, { state: 'upload_url', bytesSent: 1000, bytesTotal: 1000 })).toMatchObject({
      text: 'Uploading 100%',
      progress: 1,
    });
    expect(status({}, { state: 'upload_url', bytesSent: 5, bytesTotal: 0 })).not.toHaveProperty('progress');
  });

  it('says the published statuses in words, reads the older words, and shows an unknown one verbatim', () => {
    const RECEIVED = 'Sent — the service has received it and will start the note';
    const WRITING = 'Scribing — the service is writing the note';
    const WRITTEN = 'Written — collecting the note from the service';
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'requested' })).toEqual({
      text: RECEIVED,
      badge: 'Scribing',
      tone: 'progress',
    });
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'scribing' })).toMatchObject({
      text: WRITING,
      tone: 'progress',
    });
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'scribed' })).toMatchObject({
      text: WRITTEN,
      tone: 'progress',
    });
    expect(status({}, { state: 'scribe_requested', serviceStatus: null })).toMatchObject({ text: RECEIVED });
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'queued' })).toMatchObject({ text: RECEIVED });
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'In Progress' })).toMatchObject({ text: WRITING });
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'thinking hard' })).toMatchObject({
      text: 'Scribing — the service says: thinking hard',
      tone: 'progress',
    });
    // No raw status word of the published three reaches the vet.
    for (const word of ['requested', 'scribing', 'scribed'])
      expect(status({}, { state: 'scribe_requested', serviceStatus: word }).text).not.toContain(`: ${word}`);
  });

  it('says a late note in words, with the wait from Settings and the slow checking', () => {
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'scribing', overdue: true })).toEqual({
      text: 'The service has not finished this note after 30 minutes. It is still being checked every 2 minutes.',
      badge: 'Late',
      tone: 'warning',
    });
    const late = consultStatus(consult(recording(), job({ state: 'scribe_requested', overdue: true })), {
      overdueMinutes: 45,
    });
    expect(late.text).toBe(
      'The service has not finished this note after 45 minutes. It is still being checked every 2 minutes.',
    );
    expect(overdueText(120)).toMatch(/^The service has not finished this note after 2 hours\./);
    expect([minutesWords(1), minutesWords(60), minutesWords(90)]).toEqual(['1 minute', '1 hour', '90 minutes']);
    // Until then the status is the service's.
    expect(status({}, { state: 'scribe_requested', serviceStatus: 'scribing', overdue: false }).text).toBe(
      'Scribing — the service is writing the note',
    );
  });

  it('asks for the patient’s name a consult lacks (stopped before it was typed, or from an older version)', () => {
    expect(status({ patientName: null }, null)).toEqual({
      text: "Waiting for the patient's name — type it to send",
      badge: 'Needs you',
      tone: 'warning',
    });
    expect(status({ patientName: '  ', state: 'recovered' }, null)).toMatchObject({
      text: "Recovered after the app closed — add the patient's name to send it",
      tone: 'warning',
    });
    const waiting = {
      state: 'failed' as const,
      error: { message: 'Add the patient’s name before sending.', code: 'patient_name_required', status: null },
    };
    expect(status({ patientName: null }, waiting)).toMatchObject({
      text: "Waiting for the patient's name — type it to send",
      tone: 'warning',
    });
    expect(needsPatientName(consult(recording({ patientName: null }), job({ state: 'recorded' })))).toBe(true);
    expect(
      needsPatientName(consult(recording({ patientName: null }), job({ state: 'completed', hasNote: true }))),
    ).toBe(false);
    expect(needsPatientName(consult(recording(), null))).toBe(false);
  });

  it('says each state once: the badge keeps its mark and drops a word its sentence says', () => {
    const ready = status({}, { state: 'completed', hasNote: true });
    render(<StatusBadge status={ready} />);
    expect(document.body.textContent).toBe('✓');
    cleanup();
    const late = { text: 'Not written after 30 min — ask again?', badge: 'Late', tone: 'warning' } as const;
    expect(badgeWord(late)).toBe('Late');
    for (const s of [
      status({}, { state: 'failed', error: null }),
      status({}, { state: 'upload_url', bytesSent: 300, bytesTotal: 1000 }),
      status({ state: 'recording' }, null),
    ])
      expect(badgeWord(s), s.text).toBe('');
  });

  it('ends in a note or in the service’s own message', () => {
    expect(status({}, { state: 'completed', hasNote: true })).toEqual({
      text: 'Note ready',
      badge: 'Ready',
      tone: 'done',
    });
    expect(
      status({}, { state: 'failed', error: { message: 'No template tpl.', code: 'not_found', status: 404 } }),
    ).toEqual({
      text: 'Failed: No template tpl.',
      badge: 'Failed',
      tone: 'error',
    });
    expect(status({}, { state: 'failed', error: null })).toMatchObject({
      text: 'Failed: the service gave no reason.',
      tone: 'error',
    });
  });

  it('says why a job is held up, before where it is', () => {
    const at = new Date(2026, 2, 5, 9, 7, 3).getTime();
    expect(clockTime(at)).toBe('09:07:03');
    expect(status({}, { state: 'upload_url', bytesSent: 300, waitingFor: 'network', nextRetryAt: at })).toEqual({
      text: 'Waiting for the network — will retry at 09:07:03',
      badge: 'Waiting',
      tone: 'warning',
    });
    expect(status({}, { state: 'recorded', waitingFor: 'network', nextRetryAt: null })).toMatchObject({
      text: 'Waiting for the network — will retry soon',
    });
    expect(
      status(
        {},
        {
          state: 'recorded',
          waitingFor: 'network',
          waitingReason: "The clinic's proxy (p:3128) asks for a sign-in (407). Ask IT.",
          nextRetryAt: null,
        },
      ),
    ).toMatchObject({
      text: "Waiting — The clinic's proxy (p:3128) asks for a sign-in (407). Ask IT. The consult is kept and will retry soon.",
      tone: 'warning',
    });
    expect(status({}, { state: 'scribe_requested', waitingFor: 'sign-in' })).toMatchObject({
      text: 'Waiting for sign-in',
      tone: 'warning',
    });
    expect(status({}, { state: 'uploaded', waitingFor: 'service', nextRetryAt: at })).toMatchObject({
      text: 'The service is busy — will retry at 09:07:03',
      tone: 'warning',
    });
  });

  it('formats durations, and names a consult by its patient, never by its time', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(65_400)).toBe('1:05');
    expect(formatDuration(3_725_000)).toBe('1:02:05');
    expect(consultTitle({ patientName: 'Bella', description: 'Vomiting 2 days', label: null })).toBe(
      'Bella — Vomiting 2 days',
    );
    expect(consultTitle({ patientName: ' Bella ', description: '  ', label: 'ignored' })).toBe('Bella');
    // The name given on this computer after sending wins; a blank one does not.
    expect(
      consultTitle({
        patientName: 'Bella',
        description: 'Vomiting',
        label: null,
        listName: ' Bella  (Smith) recheck ',
      }),
    ).toBe('Bella (Smith) recheck');
    expect(consultTitle({ patientName: 'Bella', description: 'Vomiting', label: 'old', listName: '   ' })).toBe(
      'Bella — Vomiting',
    );
    expect(consultTitle({ patientName: null, description: null, label: 'Rex — limping' })).toBe(
      'No patient name — Rex — limping',
    );
    expect(consultTitle({ patientName: null, description: null, label: '  ' })).toBe('No patient name');
    const long = consultTitle({ patientName: 'Bella', description: 'x'.repeat(300), label: null });
    expect(long.length).toBeLessThan(100);
    expect(long.endsWith('…')).toBe(true);
    expect(consultTitle({ patientName: null, description: null, label: null })).not.toMatch(/Consult at/);
  });

  it('groups consults under a heading per day, newest first', () => {
    const now = new Date(2026, 2, 5, 18, 0);
    const at = (d: number, h: number) => `${d}-${h}`;
    const startedAt = (id: string) => {
      const [d, h] = id.split('-').map(Number);
      return new Date(2026, 2, d!, h).toISOString();
    };
    const groups = groupByDay([at(5, 11), at(5, 9), at(4, 16), at(2, 10)], startedAt, now);
    expect(groups.map((g) => [g.heading, g.ids])).toEqual([
      ['Today', ['5-11', '5-9']],
      ['Yesterday', ['4-16']],
      [dayHeading(new Date(2026, 2, 2, 10).toISOString(), now), ['2-10']],
    ]);
    expect(groups[2]!.heading).toMatch(/2026/);
  });

  it('groups by the local day whatever way a time is written, and a day filter takes that day whole', () => {
    const now = new Date(2026, 2, 5, 18, 0);
    const local = (d: number, h: number, m = 0) => new Date(2026, 2, d, h, m);
    // The same moments with an offset written out, and a time the list is not sorted by.
    const offset = (t: Date) => {
      const minutes = -t.getTimezoneOffset();
      const sign = minutes >= 0 ? '+' : '-';
      const hh = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
      const mm = String(Math.abs(minutes) % 60).padStart(2, '0');
      const shifted = new Date(t.getTime() + minutes * 60_000).toISOString().slice(0, 19);
      return `${shifted}${sign}${hh}:${mm}`;
    };
    const times: Record<string, string> = {
      late: local(5, 23, 59).toISOString(),
      written: offset(local(5, 0, 1)),
      midnight: local(5, 0, 0).toISOString(),
      before: local(4, 23, 59).toISOString(),
      again: local(5, 12).toISOString(),
    };
    const groups = groupByDay(Object.keys(times), (id) => times[id]!, now);
    expect(groups.map((g) => [g.key, g.ids])).toEqual([
      [dayKey(local(5, 12)), ['late', 'written', 'midnight']],
      [dayKey(local(4, 12)), ['before']],
      [dayKey(local(5, 12)), ['again']],
    ]);
    const consults = Object.entries(times).map(([id, startedAt]) => consult(recording({ id, startedAt })));
    const onDay = (day: string) =>
      filterConsults(consults, { matching: null, day, state: 'all' }).map((c) => c.recording.id);
    expect(onDay(dayKey(local(5, 12)))).toEqual(['late', 'written', 'midnight', 'again']);
    expect(onDay(dayKey(local(4, 12)))).toEqual(['before']);
    expect(onDay('2026-13-45x')).toEqual([]);
  });
});
