// The note of a completed scribe job. The sandbox has no speech model, so the note is built
// from the chosen template's sections and the recording's facts (duration, format, size),
// and its first line says so. Same template and facts, same note: nothing here reads a clock
// or a random source.

export interface RecordingFacts {
  /** ISO time the recording was received. */
  recordedAt?: string;
  durationSeconds?: number;
  sizeBytes: number;
  contentType: string;
  fileName?: string;
  /** The consult label the client gave the recording session. */
  sessionName?: string;
}

/** "42 s", "4 min 12 s", "1 h 5 min"; seconds rounded. */
export function formatDuration(seconds: number): string {
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts = [h > 0 ? `${h} h` : '', min > 0 ? `${min} min` : '', s > 0 || total === 0 ? `${s} s` : ''];
  return parts.filter(Boolean).join(' ');
}

/** Decimal units (1 KB = 1000 bytes), one decimal at most: "512 bytes", "64 KB", "1.5 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (Number(value.toFixed(1)) >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

// "an 8 min", "an 11 s", "an audio/webm", otherwise "a".
const article = (next: string): string => (/^(?:[aeio]|8|11\b|18\b)/i.test(next) ? 'an' : 'a');

/** "2025-03-01 14:03 UTC", or undefined when the time is missing or unreadable. */
function formatTime(iso: string | undefined): string | undefined {
  if (!iso) return undefined;
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? undefined : `${time.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

interface Said {
  /** "the 4 min 12 s recording" or "the recording". */
  recording: string;
}

// One or two sentences per section, keyed by the section heading in lowercase. Each says what
// a real note would hold there.
const SECTION_TEXT: Readonly<Record<string, (said: Said) => string>> = {
  subjective: (x) => `The owner's account of the history and the presenting complaint would go here, written from what was said in ${x.recording}.`,
  objective: () => 'Examination findings (weight, temperature, heart and respiratory rates, mucous membranes and anything abnormal) would be listed here.',
  assessment: () => 'The clinical assessment, with the problem list and the differential diagnoses, would be summarised here.',
  plan: () => 'Diagnostics, treatment and medications with doses, and the follow-up agreed with the owner, would be set out here.',
  signalment: () => "The patient's species, breed, age, sex and neuter status, as stated in the consult, would be recorded here.",
  history: (x) => `The history given by the owner (diet, lifestyle, previous illness, current medication) would go here, taken from ${x.recording}.`,
  'physical examination': () => 'The findings of the physical examination, system by system, would be written here.',
  'preventive care': () => 'Vaccination, parasite control and dental care discussed in the consult would be noted here.',
  recommendations: () => 'The advice given to the owner and the date of the next health check would be listed here.',
  'presenting complaint': (x) => `The reason for today's visit, in the owner's words from ${x.recording}, would be stated here.`,
  'differential diagnoses': () => 'The differential diagnoses considered, most likely first, would be listed here.',
  diagnostics: () => 'Tests performed or recommended, and any results available, would be recorded here.',
  treatment: () => 'Treatment given in the clinic and medications dispensed, with doses and duration, would be recorded here.',
  'client communication': () => 'What was explained to the owner, the estimate and the consent given would be summarised here.',
  'pre-anaesthetic assessment': () => 'The pre-anaesthetic examination, bloodwork and anaesthetic risk grade would be noted here.',
  'pre-operative assessment': () => 'The pre-operative examination, bloodwork and anaesthetic risk grade would be noted here.',
  anaesthesia: () => 'Premedication, induction, maintenance and monitoring of the anaesthetic would be recorded here.',
  'oral examination and charting': () => 'The dental chart (missing, fractured or mobile teeth, pocket depths, resorptive lesions) would be written here.',
  'procedures performed': () => 'Scaling, polishing, extractions and any dental radiographs taken would be listed here.',
  'post-operative care': () => 'Analgesia, recovery and the immediate post-operative instructions would be noted here.',
  'home care': () => 'The care at home explained to the owner (feeding, rest, wound or dental care) would go here.',
  indication: (x) => `The reason for surgery and the procedure agreed with the owner, as discussed in ${x.recording}, would be stated here.`,
  procedure: () => 'The surgical approach, technique, closure and any complications would be described here.',
  findings: () => 'Intra-operative findings and any samples submitted would be recorded here.',
  recovery: () => "Recovery from anaesthesia and the patient's condition afterwards would be noted here.",
  'post-operative plan': () => 'Medications, wound care, activity restriction and the recheck date would be set out here.',
  diagnosis: () => 'The diagnosis, in words the owner can follow, would be given here.',
  medications: () => 'Each medication to give at home, with dose, timing and duration, would be listed here.',
  'warning signs': () => 'The signs that should make the owner call the clinic at once would be listed here.',
  'follow-up': () => 'The date and purpose of the next visit would be noted here.',
  'progress since last visit': (x) => `The owner's report of progress since the last visit would go here, taken from ${x.recording}.`,
  'examination today': () => "Today's examination findings, compared with the last visit, would be written here.",
  'plan changes': () => 'Any change to medications, diet or monitoring would be recorded here.',
  'health check': () => "The examination before vaccination and the patient's fitness to be vaccinated would be noted here.",
  'vaccines given': () => 'Each vaccine given, with product, batch number and injection site, would be recorded here.',
  'reactions and advice': () => 'Possible reactions and the advice given to the owner would be noted here.',
  'next due': () => 'The dates when the next vaccines and boosters are due would be listed here.',
  triage: (x) => `The triage category and the reason for presentation, from ${x.recording}, would be recorded here.`,
  'primary survey': () => 'Airway, breathing, circulation and neurological status on arrival would be written here.',
  stabilisation: () => 'Emergency treatment given (oxygen, fluids, analgesia) and the response to it would be recorded here.',
  disposition: () => "Whether the patient was admitted, referred or sent home, and the owner's consent, would be noted here.",
  'quality of life': (x) => `The assessment of the patient's quality of life, with the owner's observations from ${x.recording}, would go here.`,
  'discussion with the owner': () => "The options discussed with the owner, and the owner's wishes, would be summarised here.",
  decision: () => 'The decision reached with the owner and the consent given would be recorded here.',
  'procedure or palliative plan': () => 'The euthanasia procedure, or the palliative care plan, would be described here.',
  aftercare: () => 'The arrangements for aftercare and the support offered to the owner would be noted here.',
  'presenting behaviour': (x) => `The behaviour problem, as the owner describes it in ${x.recording}, would go here.`,
  'history and environment': () => 'The household, daily routine, training history and the onset of the problem would be described here.',
  triggers: () => 'The situations that set off the behaviour would be listed here.',
  'behaviour modification plan': () => 'The management, training steps and any medication agreed would be set out here.',
};

const fallback = (section: string, x: Said): string => `The ${section.toLowerCase()} part of the consult would be written here from what was said in ${x.recording}.`;

/** The text of a completed note for a template and a recording. */
export function buildNote(template: { name: string; sections: readonly string[] }, facts: RecordingFacts): string {
  const duration = facts.durationSeconds !== undefined && Number.isFinite(facts.durationSeconds) && facts.durationSeconds >= 0 ? formatDuration(facts.durationSeconds) : undefined;
  const format = facts.contentType.split(';')[0]?.trim() || 'audio';
  const described = `${duration ? `${duration} ` : ''}${format}`;
  const said: Said = { recording: duration ? `the ${duration} recording` : 'the recording' };
  const lines = [`Sandbox note — generated without speech recognition from ${article(described)} ${described} recording (${formatSize(facts.sizeBytes)}).`, '', `# ${template.name}`];
  if (facts.sessionName?.trim()) lines.push(`Consult: ${facts.sessionName.trim()}`);
  const at = formatTime(facts.recordedAt);
  const file = facts.fileName?.trim();
  if (at || file) lines.push(`Recording: ${[file, at ? `received ${at}` : ''].filter(Boolean).join(', ')}`);
  template.sections.forEach((section, i) => {
    const text = (SECTION_TEXT[section.trim().toLowerCase()] ?? ((x: Said) => fallback(section, x)))(said);
    // The first section also says why nothing of the consult itself is here.
    const why = i === 0 ? ' Nothing said in the recording appears in this note: the sandbox has no speech recognition.' : '';
    lines.push('', `## ${section}`, text + why);
  });
  return `${lines.join('\n')}\n`;
}
