// A clinic's data folder with many consults, written straight to disk in the app's own formats
// (<data>/recordings/<id>/meta.json, job.json, documents/<id>.json), as months of use would
// leave it: the same seed gives the same folder. Only states that stay put are written
// (finished, failed, waiting for a template or a name, recovered): a job on its way would set
// the engine working against the sandbox while the list is measured.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordingMeta } from '../../src/main/core/recordings/index.ts';
import type { JobRecord } from '../../src/main/core/jobs/record.ts';
import { TEMPLATES } from '../../src/sandbox/templates.ts';
import { seededRandom } from '../../src/shared/seeded-random.ts';

const PETS =
  `Bella Max Luna Charlie Lucy Cooper Daisy Milo Bailey Rocky Molly Buddy Sadie Tucker Maggie Bear Sophie Duke Chloe Oliver Lola Jack Penny Toby Zoe Teddy Rosie Leo Ruby Winston Stella Oscar Gracie Murphy Ellie Louie Coco Jax Nala Bentley Pepper Finn Willow Gus Olive Riley Lily Zeus Piper Ziggy Mia Loki Roxy Archie Honey Bruno Hazel Simba Kona Rex Dexter Ginger Scout Mango Biscuit Pickle Nugget Waffles Pippin Marmalade Bramble Juniper Clover Pudding Smokey Shadow Tigger Misty Whiskers Patch Poppy Fudge Hamish Angus Jasper Sasha Kiki Bonnie Alfie Moose Otis Maple Acorn Sprout Bean Noodle Tinkerbell Fluffy Socks Mittens Boots Snowy Sooty Blue Storm Thunder Ranger Ace Bandit Tank Sarge Major Baron Duchess Princess Queenie Lady Misty Frodo Gizmo Yoda Chewie Neo`.split(
    /\s+/,
  );
const SURNAMES =
  `Smith Jones Taylor Brown Williams Wilson Johnson Davies Robinson Wright Thompson Evans Walker White Roberts Green Hall Wood Jackson Clarke Patel Khan Lewis James Phillips Mason Mitchell Rose Davis Rodriguez Cox Alexander Garcia Campbell Johnston Moore Smyth ONeill Doherty Stewart Quinn Murphy Graham Mclaughlin Hamilton Murray Hughes Robertson Thomson Scott Macdonald Reid Clark Ross Young Watson Paterson Morrison Fraser Anderson Martin Kelly Byrne Ryan Oconnor Walsh Obrien Mccarthy Doyle Kennedy Lynch Dubois Lefebvre Moreau Muller Schmidt Rossi Russo Nowak Kowalski Silva Santos Novak Horvat Jensen Nielsen Hansen Berg`.split(
    /\s+/,
  );
const COMPLAINTS = [
  'Vomiting for 2 days',
  'Annual check',
  'Limping on the left hind',
  'Itchy ears',
  'Diarrhoea since the weekend',
  'Vaccination booster',
  'Not eating',
  'Lump on the flank',
  'Recheck after dental',
  'Coughing at night',
  'Weight loss',
  'Drinking more than usual',
  'Sore eye',
  'Scooting',
  'Post-op check, spay',
  'Nail trim and check',
  'Bitten by another dog',
  'Skin rash on belly',
  'Senior wellness',
  'Lethargic',
  'Straining to urinate',
  'Blood in stool',
  'Head shaking',
  'Bad breath',
  'Puppy first visit',
  'Kitten vaccinations',
  'Seizure yesterday',
  'Hair loss',
  'Swollen paw',
  'Pre-anaesthetic check',
  'Ate a sock',
  'Arthritis review',
  'Diabetes monitoring',
  'Thyroid recheck',
  'Heart murmur follow-up',
  'Wound dressing change',
  'Microchip and check',
  'Travel certificate',
  'Behaviour: anxious at night',
  'Euthanasia discussion',
];
const VETS = [
  { userId: 'u-hart', name: 'Dr Anna Hart', email: 'anna.hart@clinic.example' },
  { userId: 'u-okafor', name: 'Dr Chidi Okafor', email: 'chidi.okafor@clinic.example' },
  { userId: 'u-lind', name: 'Dr Maja Lind', email: 'maja.lind@clinic.example' },
  { userId: 'u-reyes', name: 'Dr Sofia Reyes', email: 'sofia.reyes@clinic.example' },
];
// An account of another service than the sandbox the benchmark signs in to: the app shows such
// consults to whoever is signed in (AppCore.visibleTo), so every one of them is listed.
const OWNER_SERVICE = 'https://scribe.clinic-service.example';
const DRUGS = [
  'meloxicam',
  'amoxicillin-clavulanate',
  'maropitant',
  'gabapentin',
  'buprenorphine',
  'prednisolone',
  'cefalexin',
  'metronidazole',
  'furosemide',
  'pimobendan',
  'levothyroxine',
  'insulin glargine',
  'omeprazole',
  'carprofen',
  'oclacitinib',
  'chlorhexidine',
];
const SENTENCES = [
  'Owner reports {d} days of {c}; appetite {a}, drinking normally.',
  'Weight {w} kg (previous visit {w2} kg); body condition score {b}/9.',
  'Temperature {t} °C, heart rate {hr} bpm, respiratory rate {rr} breaths/min.',
  'Mucous membranes pink and moist, capillary refill time under 2 s.',
  'Abdominal palpation soft and non-painful; no masses felt.',
  'Mild erythema of both ear canals with brown waxy discharge; cytology shows yeast.',
  'Lameness grade {b}/10 on the left hind; pain on extension of the stifle.',
  'Started {drug} {dose} mg/kg PO q12h for {d} days with food.',
  'Dispensed {drug} {dose} mg/kg SC once in clinic; recheck in {d} days.',
  'Bloods taken for haematology and biochemistry; results to follow by phone.',
  'Discussed diet change to a gastrointestinal diet for {d} days, small meals.',
  'Advised rest, lead walks only, and to call if signs worsen or vomiting returns.',
  'Vaccinated: DHPPi and leptospirosis (L4); next booster due in 12 months.',
  'Dental grade {b}/4 with calculus on the upper premolars; dental under GA recommended.',
  'Owner consents to the plan and to an estimate of {price} for diagnostics.',
  'Chest auscultation: grade {b}/6 left apical systolic murmur, lungs clear.',
  'Urine specific gravity {usg}, dipstick negative for glucose and protein.',
  'Wound clean and healing well; sutures to be removed in {d} days.',
  'Flea and worm treatment given; next dose due in 30 days.',
  'Differentials: dietary indiscretion, gastritis, pancreatitis, foreign body.',
  'Plan: recheck in {d} days, sooner if not eating within 24 h.',
  'Skin scrape negative; impression smear shows cocci; likely superficial pyoderma.',
];

export interface GeneratedConsult {
  meta: RecordingMeta;
  job: JobRecord | null;
  documents: JobRecord[];
}

export interface DataSummary {
  consults: number;
  byKind: Record<string, number>;
  withDocuments: number;
  noteBytesMedian: number;
  noteBytesTotal: number;
  firstDay: string;
  lastDay: string;
  days: number;
  bytesOnDisk: number;
}

/** Strings planted verbatim in a few vets' edits, so a query with pattern characters has a known answer. */
export const PLANTED = [
  { text: 'ref (.* see the lab form', count: 5 },
  { text: 'X-ray plate [a-3] kept on file', count: 4 },
];

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const round = (n: number, digits: number) => Number(n.toFixed(digits));

function note(rand: () => number, sections: readonly string[], complaint: string): string {
  const parts: string[] = [];
  for (const heading of sections) {
    const lines: string[] = [];
    const n = 4 + Math.floor(rand() * 8);
    for (let i = 0; i < n; i++) {
      lines.push(
        pick(rand, SENTENCES).replace(/\{(\w+)\}/g, (_, k: string) => {
          switch (k) {
            case 'd':
              return String(1 + Math.floor(rand() * 14));
            case 'c':
              return complaint.toLowerCase();
            case 'a':
              return pick(rand, ['normal', 'reduced', 'poor', 'increased']);
            case 'w':
            case 'w2':
              return String(round(2 + rand() * 40, 1));
            case 'b':
              return String(1 + Math.floor(rand() * 6));
            case 't':
              return String(round(37.5 + rand() * 2, 1));
            case 'hr':
              return String(70 + Math.floor(rand() * 110));
            case 'rr':
              return String(16 + Math.floor(rand() * 30));
            case 'drug':
              return pick(rand, DRUGS);
            case 'dose':
              return String(pick(rand, [0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 12.5, 20]));
            case 'price':
              return `£${100 + Math.floor(rand() * 600)}`;
            case 'usg':
              return String(round(1.005 + rand() * 0.04, 3));
            default:
              return k;
          }
        }),
      );
    }
    parts.push(`## ${heading}\n${lines.join(' ')}`);
  }
  return parts.join('\n\n');
}

const iso = (ms: number) => new Date(ms).toISOString();
/** The recording store's id for a start time: `2026-11-21T10-15-02Z-ab12cd`. */
const idFor = (ms: number, rand: () => number) =>
  `${iso(ms).slice(0, 19).replace(/:/g, '-')}Z-${Math.floor(rand() * 0xffffff)
    .toString(16)
    .padStart(6, '0')}`;

/**
 * `count` consults over the `months` before `now`, on clinic days (none on Sundays, fewer on
 * Saturdays) between 08:00 and 19:00 UTC, newest last. Kinds: 90 % note ready (one in ten edited
 * by the vet), 2 % failed, 4 % waiting for a template, 2 % an older consult without a patient's
 * name, 1 % recovered after a crash, 1 % renamed in the list; 2 % of the finished ones have a
 * second document (discharge instructions).
 */
export function generateConsults(
  count: number,
  options: {
    seed?: number;
    months?: number;
    now?: number;
    /** The clinic the consults were recorded in: an engine shows a consult only to its clinic's vets. */
    clinic?: { organizationId: string; service: string };
  } = {},
): GeneratedConsult[] {
  const clinic = options.clinic ?? { organizationId: 'org-clinic', service: OWNER_SERVICE };
  // The project's seeded dice: the same seed gives the same folder on every machine.
  const rand = seededRandom(options.seed ?? 1);
  const now = options.now ?? Date.now();
  const dayMs = 24 * 3600 * 1000;
  const firstDay = Math.floor((now - (options.months ?? 8) * 30.4 * dayMs) / dayMs) * dayMs;
  const days: number[] = [];
  for (let d = firstDay; d <= now; d += dayMs) {
    const wd = new Date(d).getUTCDay();
    if (wd !== 0) days.push(d, ...(wd === 6 ? [] : [d]));
  }
  const at = (): number => {
    // Today's clinic hours still to come are drawn again.
    const ms = Math.floor(pick(rand, days) + (8 + rand() * 11) * 3600 * 1000);
    return ms < now - 60_000 ? ms : at();
  };
  const starts = Array.from({ length: count }, at).sort((a, b) => a - b);
  const soap = TEMPLATES[0]!;
  const discharge = TEMPLATES.find((t) => t.name === 'Discharge instructions') ?? soap;
  const used = new Set<string>();
  const planted = PLANTED.map((p) => ({ ...p, left: p.count }));
  return starts.map((startMs, i) => {
    let id = idFor(startMs, rand);
    while (used.has(id)) id = idFor(startMs, rand);
    used.add(id);
    const durationMs = Math.floor((3 + rand() * 22) * 60_000);
    const finishedMs = startMs + durationMs;
    const complaint = pick(rand, COMPLAINTS);
    const patient = `${pick(rand, PETS)} ${pick(rand, SURNAMES)}`;
    const vet = pick(rand, VETS);
    const template = rand() < 0.7 ? soap : pick(rand, TEMPLATES);
    const r = rand();
    const kind =
      r < 0.9
        ? 'note ready'
        : r < 0.92
          ? 'failed'
          : r < 0.96
            ? 'waiting for a template'
            : r < 0.98
              ? 'no patient name'
              : r < 0.99
                ? 'recovered'
                : 'note ready, renamed';
    const bytes = Math.floor(durationMs / 1000) * 4000;
    const meta: RecordingMeta = {
      id,
      startedAt: iso(startMs),
      updatedAt: iso(finishedMs),
      finishedAt: kind === 'recovered' ? null : iso(finishedMs),
      durationMs,
      mimeType: 'audio/webm;codecs=opus',
      label: kind === 'no patient name' ? `${patient.split(' ')[0]} — ${complaint}` : null,
      patientName: kind === 'no patient name' ? null : patient,
      description: kind === 'no patient name' ? null : complaint,
      templateId: kind === 'waiting for a template' ? null : template.public_id,
      state: kind === 'recovered' ? 'recovered' : 'finished',
      bytes,
      chunks: Math.floor(durationMs / 1000),
      durationFixed: true,
      owner: kind === 'no patient name' ? null : { ...vet, ...clinic },
      consentAt: rand() < 0.5 ? iso(startMs) : null,
      listName:
        kind === 'note ready, renamed'
          ? `${patient} (${pick(rand, SURNAMES)}) ${pick(rand, ['recheck', 'follow-up', 'second opinion'])}`
          : null,
    };
    if (kind !== 'note ready' && kind !== 'note ready, renamed' && kind !== 'failed')
      return { meta, job: null, documents: [] };
    const completedMs = finishedMs + 90_000 + rand() * 120_000;
    const text = kind === 'failed' ? null : note(rand, template.sections, complaint);
    let edited =
      text !== null && rand() < 0.1
        ? `${text}\n\nAddendum: owner called back, ${pick(rand, SENTENCES).replace(/\{\w+\}/g, '2')}`
        : null;
    const plant = planted.find((p) => p.left > 0);
    if (text !== null && plant && i % 97 === 0) {
      edited = `${text}\n\n${plant.text}`;
      plant.left--;
    }
    const base = {
      version: 1 as const,
      recordingId: id,
      templateId: template.public_id,
      failedAt: null,
      recordingSessionId: `sess-${id}`,
      upload: null,
      idempotencyKey: `idem-${id}`,
      scribeRequests: 1,
      noteRtf: null,
      bytesTotal: bytes,
      createdAt: iso(finishedMs),
      ownerUserId: vet.userId,
      actor: null,
    };
    // Audio older than the default retention (7 days) has been deleted by the app already.
    const audioDeletedAt = now - completedMs > 7 * dayMs ? iso(completedMs + 7 * dayMs) : null;
    const job: JobRecord =
      kind === 'failed'
        ? {
            ...base,
            state: 'failed',
            failedAt: 'scribe_requested',
            scribeRequestSentAt: iso(finishedMs + 30_000),
            scribeId: null,
            serviceStatus: null,
            note: null,
            editedNote: null,
            error: {
              message: 'The service could not read the audio: it is empty or damaged.',
              code: 'bad_audio',
              status: 422,
            },
            updatedAt: iso(completedMs),
            completedAt: null,
            audioDeletedAt: null,
            documentId: null,
            documentName: null,
          }
        : {
            ...base,
            state: 'completed',
            scribeRequestSentAt: iso(finishedMs + 30_000),
            scribeId: `scr-${id}`,
            serviceStatus: 'scribed',
            note: text,
            editedNote: edited,
            error: null,
            updatedAt: iso(completedMs),
            completedAt: iso(completedMs),
            audioDeletedAt,
            documentId: null,
            documentName: null,
          };
    const documents: JobRecord[] =
      job.state === 'completed' && rand() < 0.02
        ? [
            {
              ...job,
              idempotencyKey: `idem-doc-${id}`,
              templateId: discharge.public_id,
              scribeId: `scr-doc-${id}`,
              note: note(rand, discharge.sections, complaint),
              editedNote: null,
              documentId: `doc-${id.slice(-6)}`,
              documentName: discharge.name,
              createdAt: iso(completedMs),
              updatedAt: iso(completedMs + 60_000),
              completedAt: iso(completedMs + 60_000),
            },
          ]
        : [];
    return { meta, job, documents };
  });
}

/** Writes the consults into `dataDir` as the app keeps them; answers what was written. */
export function writeDataFolder(dataDir: string, consults: readonly GeneratedConsult[]): DataSummary {
  const byKind: Record<string, number> = {};
  let bytesOnDisk = 0;
  const noteBytes: number[] = [];
  const put = (file: string, value: unknown) => {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    writeFileSync(file, text);
    bytesOnDisk += Buffer.byteLength(text);
  };
  for (const c of consults) {
    const folder = join(dataDir, 'recordings', c.meta.id);
    mkdirSync(folder, { recursive: true });
    put(join(folder, 'meta.json'), c.meta);
    if (c.job) put(join(folder, 'job.json'), c.job);
    if (c.documents.length > 0) mkdirSync(join(folder, 'documents'));
    for (const d of c.documents) put(join(folder, 'documents', `${d.documentId}.json`), d);
    // Each folder last changed when its consult did, as on a clinic's PC (not all at the moment
    // of this run), which is what the engine's index of consults checks a folder by.
    const changed = new Date(
      Math.max(...[c.meta, ...(c.job ? [c.job] : []), ...c.documents].map((r) => Date.parse(r.updatedAt))),
    );
    if (c.documents.length > 0) utimesSync(join(folder, 'documents'), changed, changed);
    utimesSync(folder, changed, changed);
    const kind =
      c.job === null
        ? c.meta.state === 'recovered'
          ? 'recovered'
          : c.meta.patientName === null
            ? 'no patient name'
            : 'waiting for a template'
        : c.job.state === 'failed'
          ? 'failed'
          : c.meta.listName
            ? 'note ready, renamed'
            : c.job.editedNote
              ? 'note ready, edited'
              : 'note ready';
    byKind[kind] = (byKind[kind] ?? 0) + 1;
    const shown = c.job?.editedNote ?? c.job?.note;
    if (shown) noteBytes.push(Buffer.byteLength(shown));
  }
  noteBytes.sort((a, b) => a - b);
  const first = consults[0]?.meta.startedAt ?? '';
  const last = consults.at(-1)?.meta.startedAt ?? '';
  return {
    consults: consults.length,
    byKind,
    withDocuments: consults.filter((c) => c.documents.length > 0).length,
    noteBytesMedian: noteBytes[noteBytes.length >> 1] ?? 0,
    noteBytesTotal: noteBytes.reduce((a, b) => a + b, 0),
    firstDay: first.slice(0, 10),
    lastDay: last.slice(0, 10),
    days: new Set(consults.map((c) => c.meta.startedAt.slice(0, 10))).size,
    bytesOnDisk,
  };
}

/**
 * What `AppCore.search.search` should answer, worked out from the generated records alone: the
 * consults whose list name, patient, visit, label, note (the vet's edit when there is one) or
 * documents hold every word of the query as plain text, case and accents aside, newest first.
 */
export function expectedSearch(consults: readonly GeneratedConsult[], query: string): string[] {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const words = fold(query).split(/\s+/).filter(Boolean);
  const hits = consults.filter(({ meta, job, documents }) => {
    const texts = [
      meta.listName,
      meta.patientName,
      meta.description,
      meta.label,
      job ? (job.editedNote ?? job.note) : null,
      ...documents.map((d) => d.editedNote ?? d.note ?? ''),
    ];
    const haystack = fold(texts.filter(Boolean).join('\n'));
    return words.every((w) => haystack.includes(w));
  });
  return hits.map((c) => c.meta.id).reverse();
}
