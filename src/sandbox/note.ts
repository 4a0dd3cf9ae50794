// The note of a scribed job. The sandbox has no speech model: the note is a realistic example
// for the chosen template, written for the patient named in the recording session, and its
// first section says plainly that it is an example. Same template and patient, same note:
// nothing here reads a clock or a random source. The example fits the species the visit's
// description names: a cat's note has a cat's weight, breed, vaccines and doses; a dog's is
// written when it names a dog or no species.
import { detectSpecies } from '../shared/species.ts';

type Example = (patient: string) => string;

// One example per section heading (lowercase), as a vet's note would read for a dog seen for
// vomiting, a wellness visit, a dental and so on. Doses and figures are plausible, not advice.
const SECTION_TEXT: Readonly<Record<string, Example>> = {
  subjective: (p) =>
    `${p} has vomited three times since yesterday evening, food then bile. Appetite reduced, drinking normally. No diarrhoea. Got into the kitchen bin two days ago. Up to date with vaccines and worming.`,
  objective: () =>
    'Weight 32.4 kg (32.0 kg three months ago). T 38.9 °C, HR 96 bpm, RR 24/min. Mucous membranes pink and moist, CRT < 2 s. Mild discomfort on cranial abdominal palpation, no mass felt. Remainder of the examination unremarkable.',
  assessment: () =>
    'Acute vomiting, most likely dietary indiscretion (gastritis). Foreign body less likely but not excluded. Pancreatitis considered.',
  plan: (p) =>
    `Maropitant 1 mg/kg SC given today, then 2 mg/kg by mouth once daily for 2 days (one 60 mg tablet, 1.9 mg/kg). Bland diet in small meals for 3 days. Recheck in 48 h, sooner if ${p} vomits again, stops drinking or becomes lethargic; radiographs then.`,
  signalment: (p) => `${p}, 3-year-old female neutered Labrador Retriever.`,
  history: (p) =>
    `${p} eats a commercial adult diet twice daily; walks twice a day. No illness since the last visit. No current medication.`,
  'physical examination': () =>
    'BCS 5/9, weight 28.1 kg. T 38.6 °C, HR 88 bpm, RR 20/min. Mild tartar on the upper premolars. Heart and lungs normal on auscultation. Abdomen soft and non-painful. Skin and coat healthy.',
  'preventive care': () =>
    'DHPPi and leptospirosis booster given. Flea and tick treatment monthly, worming every 3 months. Tooth brushing discussed.',
  recommendations: (p) => `Keep ${p} at the current weight. Next health check and boosters in 12 months.`,
  'presenting complaint': (p) => `${p} has been lame on the left hind leg for 4 days, worse after rest.`,
  'differential diagnoses': () => '1. Cranial cruciate ligament injury. 2. Soft tissue strain. 3. Patellar luxation.',
  diagnostics: () =>
    'Positive cranial drawer on the left stifle. Radiographs of the left stifle recommended under sedation.',
  treatment: () => 'Meloxicam 0.1 mg/kg PO once daily with food for 7 days. Lead walks only.',
  'client communication': () =>
    'Options explained to the pet owner, including surgery if the ligament is ruptured. Estimate for radiographs given and accepted.',
  'pre-anaesthetic assessment': (p) =>
    `${p} bright and alert, fasted since 8 pm. Bloodwork within normal limits. ASA II.`,
  'pre-operative assessment': (p) =>
    `${p} bright and alert, fasted since 8 pm. Bloodwork within normal limits. ASA II.`,
  anaesthesia: () =>
    'Premedication methadone 0.2 mg/kg and dexmedetomidine 2 µg/kg IM; induction propofol to effect; maintenance isoflurane in oxygen. Monitoring stable throughout.',
  'oral examination and charting': () =>
    'Grade 2 periodontal disease. 108 fractured with pulp exposure. Pocket depth 5 mm at 208.',
  'procedures performed': () => 'Scale and polish. Surgical extraction of 108. Dental radiographs of all quadrants.',
  'post-operative care': () => 'Recovered smoothly, extubated at 11:40. Buprenorphine 0.02 mg/kg IV given.',
  'home care': () => 'Soft food for 7 days, no chews or toys. Meloxicam once daily with food for 5 days.',
  indication: (p) => `Routine neutering of ${p}, agreed with the owner.`,
  procedure: () =>
    'Midline coeliotomy, ovariohysterectomy with transfixing ligatures, three-layer closure with absorbable sutures.',
  findings: () => 'Uterus and ovaries normal in appearance. No complications.',
  recovery: () => 'Recovered calmly, standing 40 minutes after the end of anaesthesia. Wound dry.',
  'post-operative plan': () =>
    'Meloxicam for 3 days, buster collar for 10 days, lead walks only. Wound check in 3 days, sutures out in 10.',
  diagnosis: (p) => `${p} has an upset stomach (gastritis), most likely from eating something from the bin.`,
  // The tablets the vomiting dog of the SOAP example (32.4 kg) takes home: 2 mg/kg by mouth is
  // 65 mg, and one 60 mg tablet is the nearest whole tablet.
  medications: (p) =>
    `Maropitant 60 mg tablets: one tablet (60 mg, 1.9 mg/kg for ${p}'s 32.4 kg) once a day for 2 more days, with a little food.`,
  'warning signs': (p) =>
    `Call us at once if ${p} vomits again, there is blood in the vomit or stools, the belly looks swollen or painful, or ${p} stops drinking.`,
  'follow-up': () => 'Recheck appointment in 48 hours.',
  'progress since last visit': (p) => `${p} is eating well and has not vomited since the last visit. Stools normal.`,
  'examination today': () => 'Weight 32.6 kg. Abdomen soft and non-painful. Hydration normal.',
  'plan changes': () => 'Return to the usual diet over 3 days. No further medication.',
  'health check': (p) => `${p} bright and healthy, fit to be vaccinated. T 38.5 °C.`,
  'vaccines given': () => 'DHPPi and L4, right shoulder, subcutaneous.',
  'reactions and advice': () =>
    'Mild tiredness for a day is normal. Call if there is facial swelling, vomiting or collapse.',
  'next due': () => 'L4 booster in 4 weeks; annual boosters in 12 months.',
  triage: (p) => `${p} presented collapsed after being hit by a car. Triage red.`,
  'primary survey': () =>
    'Airway patent. RR 40/min, shallow. HR 160 bpm, weak pulses, pale membranes, CRT 3 s. Responsive to voice.',
  stabilisation: () => "Oxygen by flow-by, IV catheter placed, Hartmann's 10 ml/kg bolus, methadone 0.2 mg/kg IV.",
  disposition: () => 'Admitted to the hospital for monitoring and thoracic radiographs once stable. Owner consented.',
  'quality of life': (p) =>
    `${p} is eating little, has lost weight and struggles to rise. Good days are now fewer than bad days.`,
  'discussion with the owner': () => 'Palliative care and euthanasia discussed. The owner wishes to be present.',
  decision: () => 'Euthanasia agreed, consent form signed.',
  'procedure or palliative plan': () => 'IV catheter placed after sedation; pentobarbital IV given. Death confirmed.',
  aftercare: () => 'Individual cremation requested; ashes to be returned. Condolence card to be sent.',
  'presenting behaviour': (p) => `${p} barks and lunges at other dogs on walks.`,
  'history and environment': () => 'Adopted at 8 months; lives with two adults; walked twice a day on a lead.',
  triggers: () => 'Dogs approaching head-on within about 10 metres; narrow paths.',
  'behaviour modification plan': () =>
    'Walk at quieter times, keep distance, reward calm looking at other dogs. Review in 4 weeks.',
};

// Where two templates share a heading, each keeps to its own case: the behaviour consult's
// assessment is not the vomiting dog's, the emergency's diagnostics are not the lame dog's.
const BY_TEMPLATE: Readonly<Record<string, Readonly<Record<string, Example>>>> = {
  'Sick visit': {
    history: () =>
      'Lameness began after running in the park. No earlier orthopaedic problems. Eating and drinking normally. No medication given at home.',
    'physical examination': () =>
      'Weight 31.0 kg, BCS 6/9. T 38.7 °C, HR 92 bpm, RR 22/min. Weight-bearing lameness 3/5 left hind. Effusion and a medial buttress at the left stifle, discomfort on extension. Other limbs normal.',
  },
  'Discharge instructions': {
    'home care': () =>
      'Small meals of a bland diet (boiled chicken and rice, or the food we gave you) four times a day for 3 days, then back to the usual food over 3 days. Fresh water always available.',
  },
  'Recheck / progress': {
    assessment: () => 'Gastritis resolved. No sign of a foreign body or pancreatitis.',
  },
  'Emergency / triage': {
    diagnostics: () =>
      'Thoracic and abdominal FAST: small right-sided pneumothorax, no free abdominal fluid. PCV 38 %, TS 58 g/l, lactate 4.1 mmol/l, glucose 6.2 mmol/l.',
    disposition: () =>
      'Admitted to the hospital for oxygen, pain relief and monitoring; thoracic radiographs once stable. Owner consented.',
  },
  'Behaviour consult': {
    assessment: () => 'Fear-based reactivity towards unfamiliar dogs. No sign of pain or illness on examination.',
    'behaviour modification plan': () =>
      'Walk at quieter times, keep a distance at which no barking starts, reward calm looking at other dogs. A front-clip harness instead of the collar.',
    'follow-up': () => 'Review of progress in 4 weeks, by phone or in the clinic.',
  },
};

// A cat's note: what differs from the dog's examples above, by heading, then by template.
const CAT_TEXT: Readonly<Record<string, Example>> = {
  subjective: (p) =>
    `${p} has vomited three times since yesterday evening, food then froth. Appetite reduced, drinking normally. No diarrhoea. Chewed a houseplant two days ago. Up to date with vaccines and worming.`,
  objective: () =>
    'Weight 4.2 kg (4.3 kg three months ago). T 38.9 °C, HR 180 bpm, RR 28/min. Mucous membranes pink and moist, CRT < 2 s. Mild discomfort on cranial abdominal palpation, no mass or thickened bowel loops felt. Remainder of the examination unremarkable.',
  assessment: () =>
    'Acute vomiting, most likely gastritis from plant material. Linear foreign body less likely but not excluded. Pancreatitis considered.',
  plan: (p) =>
    `Maropitant 1 mg/kg SC given today, then 1 mg/kg by mouth once daily for 2 days (4 mg: a quarter of a 16 mg tablet). Bland diet in small meals for 3 days. Recheck in 48 h, sooner if ${p} vomits again, stops eating or becomes lethargic; radiographs then.`,
  signalment: (p) => `${p}, 3-year-old female neutered domestic shorthair cat.`,
  history: (p) =>
    `${p} eats a commercial adult cat diet, wet and dry; goes outdoors in the day. No illness since the last visit. No current medication.`,
  'physical examination': () =>
    'BCS 5/9, weight 4.6 kg. T 38.6 °C, HR 170 bpm, RR 24/min. Mild tartar on the upper premolars. Heart and lungs normal on auscultation, no murmur. Thyroid not palpable. Abdomen soft and non-painful, kidneys normal in size. Skin and coat healthy.',
  'preventive care': () =>
    'RCP and FeLV boosters given. Flea treatment monthly, worming every 3 months. Dental care discussed.',
  'oral examination and charting': () =>
    'Grade 2 periodontal disease. Tooth resorption at 307 and 407. Pocket depth 3 mm at 208.',
  'procedures performed': () => 'Scale and polish. Extraction of 307 and 407. Dental radiographs of all quadrants.',
  'post-operative plan': () =>
    'Meloxicam for 3 days at the cat dose, buster collar for 10 days, kept indoors. Wound check in 3 days, sutures out in 10.',
  // The cat of the SOAP example (4.2 kg) at 1 mg/kg by mouth: a quarter of a 16 mg tablet.
  medications: (p) =>
    `Maropitant 16 mg tablets: a quarter of a tablet (4 mg, 0.95 mg/kg for ${p}'s 4.2 kg) once a day for 2 more days, with a little food.`,
  'examination today': () => 'Weight 4.3 kg. Abdomen soft and non-painful. Hydration normal.',
  'vaccines given': () => 'RCP and FeLV, subcutaneous, left hind leg below the stifle.',
  'next due': () => 'FeLV booster in 3-4 weeks; annual boosters in 12 months.',
  stabilisation: () => "Oxygen by flow-by, IV catheter placed, Hartmann's 5 ml/kg bolus, methadone 0.2 mg/kg IV.",
  'presenting behaviour': (p) => `${p} urinates outside the litter tray, on the bathroom mat.`,
  'history and environment': () =>
    'Adopted at 8 months; lives indoors with two adults and another cat; one litter tray.',
  triggers: () => 'It began when the second cat arrived; the tray is in a busy hallway.',
  'behaviour modification plan': () =>
    'One litter tray per cat plus one, in quiet places; unscented litter; separate food, water and resting places for each cat. Review in 4 weeks.',
};

const CAT_BY_TEMPLATE: Readonly<Record<string, Readonly<Record<string, Example>>>> = {
  'Sick visit': {
    history: () =>
      'Lameness began after a jump down from a shelf. No earlier orthopaedic problems. Eating and drinking normally. No medication given at home.',
    'physical examination': () =>
      'Weight 5.1 kg, BCS 6/9. T 38.7 °C, HR 180 bpm, RR 26/min. Weight-bearing lameness 3/5 left hind. Mild effusion at the left stifle, discomfort on extension; patella stable. Claws and pads normal, no bite wound found. Other limbs normal.',
    'differential diagnoses': () =>
      '1. Cranial cruciate ligament injury. 2. Soft tissue strain. 3. Cat bite abscess not yet pointing.',
    diagnostics: () =>
      'Cranial drawer suspected at the left stifle. Radiographs of the left stifle recommended under sedation.',
    treatment: () => 'Meloxicam 0.05 mg/kg PO once daily with food for 5 days. Rest in one room, no jumping.',
  },
  'Discharge instructions': {
    'home care': () =>
      'Small meals of a bland food (boiled chicken, or the food we gave you) four times a day for 3 days, then back to the usual food over 3 days. Fresh water always available.',
  },
  'Behaviour consult': {
    assessment: () =>
      'Stress-related house-soiling, with the cats competing for the tray. Urinalysis clear: no sign of cystitis.',
  },
};

/** The example text for one section, for the species the visit names. */
function exampleFor(template: string, key: string, cat: boolean): Example | undefined {
  const forCat = cat ? (CAT_BY_TEMPLATE[template]?.[key] ?? CAT_TEXT[key]) : undefined;
  return forCat ?? BY_TEMPLATE[template]?.[key] ?? SECTION_TEXT[key];
}

const fallback =
  (section: string): Example =>
  () =>
    `The sandbox has no example text for ${section.toLowerCase()}.`;

export const EXAMPLE_NOTE_LABEL = 'Example note: the sandbox does not listen to the audio';

/** A scribed note as `categories_output`: the label first, then one category per template section. */
export function buildNote(
  template: { name: string; sections: readonly string[] },
  recordingSession: { patientName: string; description?: string },
): { category: string; content: string }[] {
  const patient = recordingSession.patientName.trim() || 'The patient';
  const described = recordingSession.description?.trim() ? ` (${recordingSession.description.trim()})` : '';
  const species = detectSpecies(recordingSession.description ?? '')[0];
  const cat = species === 'cat';
  // Another species gets the dog's example, and is told so rather than given a dog's figures unsaid.
  const written =
    species && species !== 'dog' && !cat
      ? ' The sandbox writes its examples for dogs and cats; this one is a dog’s.'
      : '';
  return [
    {
      category: 'Example note',
      content: `${EXAMPLE_NOTE_LABEL}. This ${template.name} note for ${patient}${described} shows how a note from the service looks; nothing in it comes from the consult.${written}`,
    },
    ...template.sections.map((section) => {
      const key = section.trim().toLowerCase();
      const example = exampleFor(template.name, key, cat) ?? fallback(section);
      return { category: section, content: example(patient) };
    }),
  ];
}
