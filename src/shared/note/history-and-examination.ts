// What of a note differentials are asked from: the history and the examination (a SOAP note's
// subjective and objective parts, and the same parts under other templates' headings). The
// assessment and plan are the vet's own conclusions and a disclaimer is not about the patient:
// sent with the rest, "foreign body less likely" reads as a diagnosis and "call if she becomes
// lethargic" as a sign. Headings are the only way a note says which part is which, so they are
// matched by the words templates use for them.
import type { NoteSection } from './types.ts';

// Headings of what was told and found: history, complaint, examination, vitals, test results.
const FINDINGS =
  /\b(?:subjective|objective|history|anamnesis|complaint|presenting|presentation|reason for (?:the )?visit|signalment|exam|examination|findings|vitals?|vital signs|diagnostics|tests?|test results|laborator(?:y|ies)|lab results|bloodwork|imaging|progress|health check|triage|primary survey)\b/i;
// Headings of what the vet concluded or told the owner, and of a disclaimer, even beside one
// of the words above ("Assessment and plan", "Findings and treatment plan").
const CONCLUSIONS =
  /\b(?:assessment|plan|differentials?|diagnos[ie]s|treatment|medications?|prescriptions?|home care|aftercare|warning signs|follow-?up|recommendations?|advice|communication|discharge|prognosis|decision|disposition|disclaimer|example note)\b/i;

const isConclusion = (s: NoteSection) => CONCLUSIONS.test(s.heading);
const isFindings = (s: NoteSection) => s.heading !== '' && FINDINGS.test(s.heading) && !isConclusion(s);

/**
 * The sections of a note's history and examination. A note whose headings name neither gives
 * every section that is not a conclusion; one without headings is given whole, as nothing in it
 * says what it is.
 */
export function historyAndExaminationSections(sections: readonly NoteSection[]): readonly NoteSection[] {
  const findings = sections.filter(isFindings);
  if (findings.length > 0) return findings;
  const rest = sections.filter((s) => !isConclusion(s));
  return rest.length > 0 ? rest : sections;
}
