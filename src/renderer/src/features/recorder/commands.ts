// What the tray, the global shortcut and the buttons that are neither the microphone's nor the
// details' call: the tray and shortcut commands (start, stop, toggle, pause, resume), the
// pet owner's consent declined, and a finished recording sent to be scribed.
import type { RecorderAction } from '../../../../shared/desktop.ts';
import type { ConsultInfo } from '../../../../shared/ipc.ts';
import { api } from '../../api.ts';
import { useConsults } from '../../stores/consults.ts';
import { useNav } from '../../stores/nav.ts';
import { isCapturing } from '../../stores/recorder.ts';
import { fail, get, set } from './live-state.ts';
import { startRecording } from './recording-start.ts';
import { pauseRecording, resumeRecording, stopRecording } from './recording-under-way.ts';

/** Words for a consult not recorded because the owner did not consent. */
export const CONSENT_DECLINED_MESSAGE = 'Not recorded: the owner did not consent. Nothing was recorded.';

/**
 * A command from the tray or the global shortcut. A start shows the recorder and records at
 * once, with or without the patient's name (asked at Stop when it is still missing), after the
 * pet owner's consent when Settings asks for it, as the button does.
 */
export async function obeyCommand(action: RecorderAction): Promise<void> {
  const { status } = get();
  switch (action) {
    case 'toggle':
      return obeyCommand(isCapturing(status) ? 'stop' : 'start');
    case 'start':
      useNav.getState().go({ name: 'record' });
      await startRecording();
      return;
    case 'stop':
      if (isCapturing(status)) await stopRecording();
      return;
    case 'pause':
      if (status === 'recording') await pauseRecording();
      return;
    case 'resume':
      if (status === 'paused') await resumeRecording();
      return;
  }
}

/** The vet says the owner did not consent: nothing is recorded, and the window says so. */
export function declineConsent(): void {
  set({ consentAsked: false, info: CONSENT_DECLINED_MESSAGE });
}

/** For a recording stopped without a template: send it with the one chosen now. */
export async function sendToScribe(): Promise<void> {
  const { result, templateId } = get();
  if (!result || result.sent || !templateId) return;
  try {
    await api.consults.submit({ id: result.id, templateId });
    set({ result: { ...result, sent: true } });
  } catch (e) {
    fail(e, 'Could not send the recording to be scribed');
  }
  // The template is the visit's: the other pets named by now go with it too; one without its
  // name waits for it in Consults.
  for (const pet of otherPets(useConsults.getState().byId, result.id)) {
    if (pet.job || !pet.recording.patientName?.trim()) continue;
    await api.consults
      .submit({ id: pet.recording.id, templateId })
      .catch((e: unknown) => fail(e, `Could not send ${pet.recording.patientName} to be scribed`));
  }
}

/** The other pets of the visit recorded as `id`, as this window last heard of them. */
export function otherPets(byId: Record<string, ConsultInfo>, id: string): ConsultInfo[] {
  return Object.values(byId).filter((c) => c.recording.visitId === id && c.recording.id !== id);
}
