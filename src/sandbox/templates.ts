// The note templates of the sandbox (`GET /templates/all`). The service publishes no template
// fields beyond the identifier; the sandbox lists public_id, name and description, and builds each
// note from the template's sections (note.ts). The ids are fixed so that a client can keep a
// default template across sandbox restarts.

export interface NoteTemplate {
  /** Stable UUID. */
  public_id: string;
  name: string;
  description: string;
  /** The headings of a note written with this template, in order. */
  sections: string[];
}

export const TEMPLATES: readonly NoteTemplate[] = [
  {
    public_id: '81e053a2-5ae9-4265-af88-4dcbe0f9a9aa',
    name: 'SOAP',
    description: 'The classic consult note: subjective history, objective findings, assessment and plan.',
    sections: ['Subjective', 'Objective', 'Assessment', 'Plan'],
  },
  {
    public_id: 'c644a8a4-ea23-41cd-9c3f-881c06af17b7',
    name: 'Wellness exam',
    description:
      'Annual or senior health check of a well patient: history, full examination, preventive care and advice.',
    sections: ['Signalment', 'History', 'Physical examination', 'Preventive care', 'Recommendations'],
  },
  {
    public_id: 'f8c71d19-dc2d-4bf2-ba6c-c6a2f8766642',
    name: 'Sick visit',
    description: 'A problem-oriented consult for an unwell patient, from presenting complaint to treatment.',
    sections: [
      'Presenting complaint',
      'History',
      'Physical examination',
      'Differential diagnoses',
      'Diagnostics',
      'Treatment',
      'Client communication',
    ],
  },
  {
    public_id: '5d4b3abd-b27b-46df-bb7e-fd8bfa5adab3',
    name: 'Dental procedure',
    description: 'Dental examination under anaesthesia, charting, procedures performed and home care.',
    sections: [
      'Pre-anaesthetic assessment',
      'Anaesthesia',
      'Oral examination and charting',
      'Procedures performed',
      'Post-operative care',
      'Home care',
    ],
  },
  {
    public_id: 'a73b8a58-433f-4445-bb03-65543d806955',
    name: 'Surgery report',
    description: 'Operative report: indication, anaesthesia, procedure, findings and recovery.',
    sections: [
      'Indication',
      'Pre-operative assessment',
      'Anaesthesia',
      'Procedure',
      'Findings',
      'Recovery',
      'Post-operative plan',
    ],
  },
  {
    public_id: 'f96a64f1-f029-4939-98cb-b01bd242c1c5',
    name: 'Discharge instructions',
    description:
      'What the pet owner takes home: diagnosis, medications, care at home, warning signs and the next visit.',
    sections: ['Diagnosis', 'Medications', 'Home care', 'Warning signs', 'Follow-up'],
  },
  {
    public_id: '56817859-e849-46e1-9471-075ec2b9a7d1',
    name: 'Recheck / progress',
    description: 'A follow-up visit: progress since the last visit, findings today and changes to the plan.',
    sections: ['Progress since last visit', 'Examination today', 'Assessment', 'Plan changes'],
  },
  {
    public_id: 'fc2ef0d7-8a29-4cfc-b599-d46a5067799e',
    name: 'Vaccination visit',
    description: 'Health check before vaccination, vaccines given and the next dates due.',
    sections: ['Health check', 'Vaccines given', 'Reactions and advice', 'Next due'],
  },
  {
    public_id: 'd5b43624-fd23-4900-96f5-96905d2b8ebe',
    name: 'Emergency / triage',
    description: 'Emergency admission: triage, primary survey, stabilisation and disposition.',
    sections: ['Triage', 'Primary survey', 'Stabilisation', 'Diagnostics', 'Disposition'],
  },
  {
    public_id: '9e381322-ee9c-47d6-ab72-dae180035a0e',
    name: 'End-of-life consult',
    description: "Quality-of-life discussion, the owner's decision, and euthanasia or palliative care arrangements.",
    sections: ['Quality of life', 'Discussion with the owner', 'Decision', 'Procedure or palliative plan', 'Aftercare'],
  },
  {
    public_id: '703cdabf-096c-49e9-a058-e9cdc94f65c8',
    name: 'Behaviour consult',
    description: 'A behaviour problem: history, triggers, assessment and a behaviour modification plan.',
    sections: [
      'Presenting behaviour',
      'History and environment',
      'Triggers',
      'Assessment',
      'Behaviour modification plan',
      'Follow-up',
    ],
  },
];

export function findTemplate(id: string): NoteTemplate | undefined {
  return TEMPLATES.find((t) => t.public_id === id);
}
