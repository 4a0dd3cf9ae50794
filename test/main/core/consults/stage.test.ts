// The consult's stage as the engine works it out and sends it with every consult: the window
// chooses words for it (test/renderer/lib/consult-status.test.tsx) and never works it out again.
import { describe, expect, it } from 'vitest';
import { consultInfo, consultStage } from '../../../../src/main/core/consults/stage.ts';
import { withAccess } from '../../../../src/main/core/consults/access.ts';
import { job, recording } from '../../../renderer/support/consult-info.ts';

describe('consultStage', () => {
  it('follows a consult from the microphone to its note', () => {
    const r = recording();
    expect(consultStage(recording({ state: 'recording' }), null, false)).toBe('recording');
    expect(consultStage(recording({ state: 'paused' }), null, false)).toBe('paused');
    expect(consultStage(r, null, false)).toBe('needs-template');
    expect(consultStage(recording({ patientName: ' ' }), null, false)).toBe('needs-name');
    expect(consultStage(recording({ state: 'recovered', patientName: null }), null, false)).toBe('recovered');
    expect(consultStage(r, job({ state: 'recorded' }), false)).toBe('preparing');
    expect(consultStage(r, job({ state: 'recording_session_created' }), false)).toBe('upload');
    expect(consultStage(r, job({ state: 'upload_url', bytesSent: 10 }), false)).toBe('upload');
    expect(consultStage(r, job({ state: 'uploaded' }), false)).toBe('uploaded');
    expect(consultStage(r, job({ state: 'scribe_requested' }), false)).toBe('scribing');
    expect(consultStage(r, job({ state: 'scribe_requested', overdue: true }), false)).toBe('late');
    expect(consultStage(r, job({ state: 'completed', hasNote: true }), false)).toBe('ready');
    expect(consultStage(r, job({ state: 'failed' }), false)).toBe('failed');
  });

  it('says what holds a consult up before where it is, and a missing name before a failure', () => {
    const r = recording();
    expect(consultStage(r, job({ state: 'upload_url', waitingFor: 'network' }), false)).toBe('waiting');
    expect(consultStage(r, job({ state: 'recorded', waitingFor: 'owner' }), false)).toBe('waiting');
    const nameless = recording({ patientName: null });
    const refused = job({
      state: 'failed',
      error: { message: 'Add the patient’s name before sending.', code: 'patient_name_required', status: null },
    });
    expect(consultStage(nameless, refused, false)).toBe('needs-name');
    expect(consultStage(nameless, job({ state: 'completed' }), false)).toBe('ready');
  });

  it('is an offer to claim for the vet the gate offers it to, and the stage goes with the consult', () => {
    const info = consultInfo(recording(), job({ state: 'recorded', waitingFor: 'claim' }));
    expect(info).toMatchObject({ stage: 'waiting', needsPatientName: false });
    expect(withAccess(info, 'claim')).toMatchObject({ claimable: true, stage: 'claim' });
    expect(withAccess(info, 'full')).toMatchObject({ stage: 'waiting' });
    // Still recording outranks the offer: the audio goes on whoever is in front.
    expect(withAccess(consultInfo(recording({ state: 'recording' }), null), 'claim').stage).toBe('recording');
  });
});
