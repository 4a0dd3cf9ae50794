// The clinic's consults from the two lists: a scribe is put under its recording session only
// when the service names that recording session (a note under the wrong patient's name is worse than a
// note under none), otherwise it is listed by its date and template. A recording session with no note
// linked is listed by its patient and date, so a search for the patient finds that the
// consult happened elsewhere. Whatever this computer recorded (its recording sessions and scribes,
// further documents included) is left out: it is listed once, as this computer's.
import type { ClinicConsult } from '../../../shared/clinic.ts';
import type { ScribeListItem, RecordingSessionListItem } from '../../../shared/service/lists.ts';

export interface MergeInput {
  scribes: readonly ScribeListItem[];
  recordingSessions: readonly RecordingSessionListItem[];
  local: { recordingSessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> };
  templateNames: ReadonlyMap<string, string>;
  /** Recording sessions of scribes learnt from GET /scribe/get (kept from earlier reads). */
  linked: ReadonlyMap<string, string>;
  keptNotes: ReadonlySet<string>;
  /** The kept notes' words for the search, by scribe. */
  noteWords?: ReadonlyMap<string, string>;
}

const EPOCH = new Date(0).toISOString();

export function mergeClinic(input: MergeInput): ClinicConsult[] {
  const { local, templateNames, linked, keptNotes, noteWords } = input;
  const recordingSessions = new Map(input.recordingSessions.map((s) => [s.id, s]));
  const withNote = new Set<string>();
  const out: ClinicConsult[] = [];
  for (const scribe of input.scribes) {
    if (local.scribeIds.has(scribe.id)) continue;
    const recordingSessionId = scribe.recordingSessionId ?? linked.get(scribe.id) ?? null;
    if (recordingSessionId !== null && local.recordingSessionIds.has(recordingSessionId)) continue;
    const recordingSession = recordingSessionId === null ? undefined : recordingSessions.get(recordingSessionId);
    if (recordingSessionId !== null) withNote.add(recordingSessionId);
    const words = noteWords?.get(scribe.id);
    out.push({
      key: `scribe:${scribe.id}`,
      scribeId: scribe.id,
      recordingSessionId,
      patientName: recordingSession?.patientName ?? null,
      description: recordingSession?.description ?? null,
      templateId: scribe.templateId,
      templateName: scribe.templateId === null ? null : (templateNames.get(scribe.templateId) ?? null),
      status: scribe.status,
      updatedAt: scribe.updatedAt ?? recordingSession?.updatedAt ?? EPOCH,
      noteKept: keptNotes.has(scribe.id),
      ...(words === undefined ? {} : { noteWords: words }),
    });
  }
  for (const recordingSession of recordingSessions.values()) {
    if (local.recordingSessionIds.has(recordingSession.id) || withNote.has(recordingSession.id)) continue;
    out.push({
      key: `recording-session:${recordingSession.id}`,
      scribeId: null,
      recordingSessionId: recordingSession.id,
      patientName: recordingSession.patientName,
      description: recordingSession.description,
      templateId: null,
      templateName: null,
      status: null,
      updatedAt: recordingSession.updatedAt ?? EPOCH,
      noteKept: false,
    });
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}
