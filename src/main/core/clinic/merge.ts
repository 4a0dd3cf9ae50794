// The clinic's consults from the two lists: a scribe is put under its recording session only
// when the service names that session (a note under the wrong patient's name is worse than a
// note under none), otherwise it is listed by its date and template. A session with no note
// linked is listed by its patient and date, so a search for the patient finds that the
// consult happened elsewhere. Whatever this computer recorded (its sessions and scribes,
// further documents included) is left out: it is listed once, as this computer's.
import type { ClinicConsult } from '../../../shared/clinic.ts';
import type { ScribeListItem, SessionListItem } from '../../../shared/service/lists.ts';

export interface MergeInput {
  scribes: readonly ScribeListItem[];
  sessions: readonly SessionListItem[];
  local: { sessionIds: ReadonlySet<string>; scribeIds: ReadonlySet<string> };
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
  const sessions = new Map(input.sessions.map((s) => [s.id, s]));
  const withNote = new Set<string>();
  const out: ClinicConsult[] = [];
  for (const scribe of input.scribes) {
    if (local.scribeIds.has(scribe.id)) continue;
    const sessionId = scribe.sessionId ?? linked.get(scribe.id) ?? null;
    if (sessionId !== null && local.sessionIds.has(sessionId)) continue;
    const session = sessionId === null ? undefined : sessions.get(sessionId);
    if (sessionId !== null) withNote.add(sessionId);
    const words = noteWords?.get(scribe.id);
    out.push({
      key: `scribe:${scribe.id}`,
      scribeId: scribe.id,
      sessionId,
      patientName: session?.patientName ?? null,
      description: session?.description ?? null,
      templateId: scribe.templateId,
      templateName: scribe.templateId === null ? null : (templateNames.get(scribe.templateId) ?? null),
      status: scribe.status,
      updatedAt: scribe.updatedAt ?? session?.updatedAt ?? EPOCH,
      noteKept: keptNotes.has(scribe.id),
      ...(words === undefined ? {} : { noteWords: words }),
    });
  }
  for (const session of sessions.values()) {
    if (local.sessionIds.has(session.id) || withNote.has(session.id)) continue;
    out.push({
      key: `session:${session.id}`,
      scribeId: null,
      sessionId: session.id,
      patientName: session.patientName,
      description: session.description,
      templateId: null,
      templateName: null,
      status: null,
      updatedAt: session.updatedAt ?? EPOCH,
      noteKept: false,
    });
  }
  return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}
