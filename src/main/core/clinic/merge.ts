// The clinic's consults from the two lists: a scribe is put under its recording session only
// when the service names that recording session (a note under the wrong patient's name is worse than a
// note under none). A recording session with no note linked is listed by its patient and date,
// with the notes linked to no visit that were written around its time as its candidates (two
// pets seen together give each visit both notes: the vet knows which is whose, the service does
// not say), so one visit is one row and a search for the patient finds its notes. A note linked
// to no visit and no visit's candidate is listed by its date and template. Whatever this computer recorded (its recording sessions and scribes,
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

/**
 * How far a note's last change may be from its visit's for the note to be offered as the
 * visit's: a visit's time is its recording's last upload, and its note is written in the minutes
 * after (a few minutes before too, where the visit was changed again after its note).
 */
export const CANDIDATE_BEFORE_MS = 5 * 60_000;
export const CANDIDATE_AFTER_MS = 30 * 60_000;

/**
 * At most this many candidates for a visit: more notes than that around its time (a busy
 * morning, a clinic of many rooms) make the guess no help, and the visit says only that the
 * service does not say which note is its own. It also bounds the list at thousands of items.
 */
export const MAX_CANDIDATES = 6;

/** The notes linked to no visit, by time, for the visits to find theirs among (a sorted search, not one pass per visit). */
function byTime(unlinked: readonly ClinicConsult[]) {
  const notes = unlinked
    .filter((n) => n.updatedAt !== EPOCH && Number.isFinite(Date.parse(n.updatedAt)))
    .map((n) => ({ at: Date.parse(n.updatedAt), note: n }))
    .sort((a, b) => a.at - b.at || a.note.key.localeCompare(b.note.key));
  return (visitAt: string): ClinicConsult[] => {
    const at = Date.parse(visitAt);
    if (visitAt === EPOCH || !Number.isFinite(at)) return [];
    let low = 0;
    let high = notes.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (notes[mid]!.at < at - CANDIDATE_BEFORE_MS) low = mid + 1;
      else high = mid;
    }
    const found: ClinicConsult[] = [];
    for (let i = low; i < notes.length && notes[i]!.at <= at + CANDIDATE_AFTER_MS; i++) {
      if (found.length === MAX_CANDIDATES) return [];
      found.push(notes[i]!.note);
    }
    return found;
  };
}

export function mergeClinic(input: MergeInput): ClinicConsult[] {
  const { local, templateNames, linked, keptNotes, noteWords } = input;
  const recordingSessions = new Map(input.recordingSessions.map((s) => [s.id, s]));
  const withNote = new Set<string>();
  const out: ClinicConsult[] = [];
  /** Notes linked to no visit: each a candidate of the visits of its time, else a row of its own. */
  const unlinked: ClinicConsult[] = [];
  for (const scribe of input.scribes) {
    if (local.scribeIds.has(scribe.id)) continue;
    const recordingSessionId = scribe.recordingSessionId ?? linked.get(scribe.id) ?? null;
    if (recordingSessionId !== null && local.recordingSessionIds.has(recordingSessionId)) continue;
    const recordingSession = recordingSessionId === null ? undefined : recordingSessions.get(recordingSessionId);
    if (recordingSessionId !== null) withNote.add(recordingSessionId);
    const words = noteWords?.get(scribe.id);
    (recordingSessionId === null ? unlinked : out).push({
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
  const candidatesAt = byTime(unlinked);
  const offered = new Set<string>();
  for (const recordingSession of recordingSessions.values()) {
    if (local.recordingSessionIds.has(recordingSession.id) || withNote.has(recordingSession.id)) continue;
    const updatedAt = recordingSession.updatedAt ?? EPOCH;
    const candidates = candidatesAt(updatedAt);
    for (const c of candidates) offered.add(c.key);
    out.push({
      key: `recording-session:${recordingSession.id}`,
      scribeId: null,
      recordingSessionId: recordingSession.id,
      patientName: recordingSession.patientName,
      description: recordingSession.description,
      templateId: null,
      templateName: null,
      status: null,
      updatedAt,
      noteKept: false,
      ...(candidates.length === 0 ? {} : { candidates }),
    });
  }
  for (const note of unlinked) if (!offered.has(note.key)) out.push(note);
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}
