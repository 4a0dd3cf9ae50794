// The sandbox's formulary through `POST /medication_agent_v2` over loopback: the drugs a
// small-animal clinic uses most, each answered for the dog and for the cat with the dose the
// usual references state (written out here apart from the formulary), found by its brand
// names too; and every drug a treatment plan recommends that the formulary covers.
import { describe, expect, it } from 'vitest';
import { CONDITIONS } from '../../src/sandbox/knowledge/conditions/index.ts';
import { answerMedication } from '../../src/sandbox/medication.ts';
import { perKgTotals } from '../../src/shared/note/figures.ts';
import { MEDICATION_MEMBERS } from '../support/agent-members.ts';
import { call } from '../support/http.ts';
import { signedInSandbox } from './support.ts';

const world = signedInSandbox();

type Answer = {
  status: boolean;
  reason: string;
  response: {
    'Plain English Concise': string;
    'Plain English Summary': string;
    'Medication Details': Record<string, Record<string, string>>;
  } | null;
};
const med = async (input: string) => {
  const a = await call<Answer>('POST', `${world.sandbox.urls.agents_api_url}/medication_agent_v2`, {
    token: world.me.access,
    body: { input },
  });
  expect(a.status).toBe(200);
  return a.json;
};

/**
 * Each drug: the card it answers with, and what its answer must say for a dog and for a cat:
 * the standard dose (as "Drug in dogs: …"), or that the drug is not for that species.
 */
const DRUGS: { ask: string; card: string; dog: RegExp; cat: RegExp }[] = [
  {
    ask: 'carprofen',
    card: 'Carprofen',
    dog: /4 mg\/kg PO or SC once daily/,
    cat: /4 mg\/kg SC or IV once, at surgery, not repeated/,
  },
  { ask: 'meloxicam', card: 'Meloxicam', dog: /0\.1 mg\/kg PO once daily/, cat: /0\.05 mg\/kg PO once daily/ },
  { ask: 'robenacoxib', card: 'Robenacoxib', dog: /1-2 mg\/kg PO once daily/, cat: /1-2\.4 mg\/kg PO once daily/ },
  {
    ask: 'gabapentin',
    card: 'Gabapentin',
    dog: /5-10 mg\/kg PO every 8-12 hours/,
    cat: /50-100 mg per cat PO 1-2 hours before a visit/,
  },
  { ask: 'trazodone', card: 'Trazodone', dog: /3-5 mg\/kg PO/, cat: /50-100 mg per cat/ },
  {
    ask: 'maropitant',
    card: 'Maropitant',
    dog: /1 mg\/kg SC or IV once daily/,
    cat: /1 mg\/kg SC, IV or PO once daily/,
  },
  {
    ask: 'amoxicillin-clavulanate',
    card: 'Amoxicillin-clavulanate',
    dog: /12\.5-25 mg\/kg PO every 12 hours/,
    cat: /12\.5-25 mg\/kg PO every 12 hours/,
  },
  { ask: 'cefovecin', card: 'Cefovecin', dog: /8 mg\/kg SC once/, cat: /8 mg\/kg SC once/ },
  {
    ask: 'doxycycline',
    card: 'Doxycycline',
    dog: /10 mg\/kg PO once daily; 5 mg\/kg PO every 12 hours/,
    cat: /10 mg\/kg PO once daily/,
  },
  {
    ask: 'metronidazole',
    card: 'Metronidazole',
    dog: /10-15 mg\/kg PO every 12 hours/,
    cat: /10 mg\/kg PO every 12 hours/,
  },
  { ask: 'prednisolone', card: 'Prednisolone', dog: /0\.5-1 mg\/kg PO once daily/, cat: /1-2 mg\/kg PO once daily/ },
  { ask: 'furosemide', card: 'Furosemide', dog: /2-4 mg\/kg IV or IM/, cat: /1-2 mg\/kg IV or IM/ },
  {
    ask: 'pimobendan',
    card: 'Pimobendan',
    dog: /0\.2-0\.3 mg\/kg PO every 12 hours/,
    cat: /0\.25 mg\/kg PO every 12 hours/,
  },
  {
    ask: 'levothyroxine',
    card: 'Levothyroxine',
    dog: /0\.02 mg\/kg PO every 12 hours/,
    cat: /0\.05-0\.1 mg per cat PO once daily/,
  },
  {
    ask: 'methimazole',
    card: 'Methimazole',
    dog: /not for routine use in dogs/,
    cat: /1\.25-2\.5 mg per cat PO every 12 hours/,
  },
  {
    ask: 'insulin',
    card: 'Insulin',
    dog: /0\.25 IU\/kg SC every 12 hours/,
    cat: /0\.25-0\.5 IU\/kg SC every 12 hours/,
  },
  {
    ask: 'buprenorphine',
    card: 'Buprenorphine',
    dog: /0\.01-0\.02 mg\/kg IV or IM every 6-8 hours/,
    cat: /0\.01-0\.03 mg\/kg IV, IM or on the gums/,
  },
  {
    ask: 'methadone',
    card: 'Methadone',
    dog: /0\.1-0\.5 mg\/kg IV or IM every 4-6 hours/,
    cat: /0\.1-0\.3 mg\/kg IV or IM every 4-6 hours/,
  },
  { ask: 'dexmedetomidine', card: 'Dexmedetomidine', dog: /2-5 µg\/kg IV or IM/, cat: /5-15 µg\/kg IM/ },
  {
    ask: 'acepromazine',
    card: 'Acepromazine',
    dog: /0\.01-0\.05 mg\/kg IV, IM or SC/,
    cat: /0\.02-0\.05 mg\/kg IV, IM or SC/,
  },
  {
    ask: 'fluralaner',
    card: 'Fluralaner',
    dog: /25-56 mg\/kg PO .*every 12 weeks/,
    cat: /40-94 mg\/kg as a spot-on every 12 weeks/,
  },
  { ask: 'afoxolaner', card: 'Afoxolaner', dog: /2\.7-7 mg\/kg PO once a month/, cat: /not for cats/ },
  {
    ask: 'sarolaner',
    card: 'Sarolaner',
    dog: /2-4 mg\/kg PO once a month/,
    cat: /1-2 mg\/kg as a spot-on once a month, with selamectin/,
  },
  {
    ask: 'selamectin',
    card: 'Selamectin',
    dog: /6 mg\/kg at least, as a spot-on once a month/,
    cat: /6 mg\/kg at least, as a spot-on once a month/,
  },
  {
    ask: 'milbemycin oxime',
    card: 'Milbemycin oxime',
    dog: /0\.5 mg\/kg PO once a month/,
    cat: /2 mg\/kg PO once a month/,
  },
  { ask: 'praziquantel', card: 'Praziquantel', dog: /5 mg\/kg PO or SC once/, cat: /5 mg\/kg PO or SC once/ },
  {
    ask: 'fenbendazole',
    card: 'Fenbendazole',
    dog: /50 mg\/kg PO once daily for 3 days/,
    cat: /50 mg\/kg PO once daily for 3 days/,
  },
];

describe("the sandbox's formulary", () => {
  it('answers "What is the dosing for carprofen in dogs?" with carprofen and its dog dose, to check against the label', async () => {
    const a = await med('What is the dosing for carprofen in dogs?');
    expect(a.status).toBe(true);
    expect(Object.keys(a.response!['Medication Details'])).toEqual(['Carprofen']);
    expect(a.response!['Medication Details']['Carprofen']!['dosing_by_species']).toMatch(
      /^Dog: 4 mg\/kg PO or SC once daily/,
    );
    expect(a.response!['Plain English Concise']).toMatch(/^Carprofen .* for dogs/);
    const summary = a.response!['Plain English Summary'];
    expect(summary).toContain('Carprofen in dogs: 4 mg/kg PO or SC once daily; 2 mg/kg PO every 12 hours instead.');
    expect(summary).toContain("Check it against the product's label.");
    expect(summary).not.toMatch(/in cats:/);
  });

  it('answers each drug for the dog and for the cat, each card whole, its dosing "Dog: … Cat: …" with totals the app can work out', async () => {
    expect(DRUGS).toHaveLength(27);
    for (const d of DRUGS) {
      for (const species of ['dog', 'cat'] as const) {
        const a = await med(`What is the dose of ${d.ask} for a ${species}?`);
        expect(a.status, `${d.ask} for a ${species}: ${a.reason}`).toBe(true);
        const details = a.response!['Medication Details'];
        expect(Object.keys(details), d.ask).toEqual([d.card]);
        const card = details[d.card]!;
        expect(Object.keys(card).sort()).toEqual([...MEDICATION_MEMBERS].sort());
        for (const [k, v] of Object.entries(card)) expect(v.trim(), `${d.card}: ${k}`).not.toBe('');
        expect(card['dosing_by_species'], d.card).toMatch(/^Dog: .+\. Cat: .+/);
        // The window adds the total for the patient's weight to every rate per kilogram: each is one it reads.
        const dosing = card['dosing_by_species']!;
        expect(perKgTotals(dosing, 10).length, d.card).toBe(dosing.match(/\/kg\b/g)?.length ?? 0);
        const said = `${a.response!['Plain English Concise']} ${a.response!['Plain English Summary']}`;
        expect(said, `${d.ask} for a ${species}`).toMatch(d[species]);
        const other = species === 'dog' ? 'cats' : 'dogs';
        expect(a.response!['Plain English Summary'], `${d.ask} for a ${species}`).not.toContain(` in ${other}:`);
      }
    }
  }, 60_000);

  it('finds a drug by its brand name, and both drugs of a brand that combines two', async () => {
    const brands: [string, string[]][] = [
      ['Rimadyl', ['Carprofen']],
      ['Metacam', ['Meloxicam']],
      ['Onsior', ['Robenacoxib']],
      ['Cerenia', ['Maropitant']],
      ['Clavamox', ['Amoxicillin-clavulanate']],
      ['Synulox', ['Amoxicillin-clavulanate']],
      ['Convenia', ['Cefovecin']],
      ['Vetmedin', ['Pimobendan']],
      ['Lasix', ['Furosemide']],
      ['Felimazole', ['Methimazole']],
      ['Soloxine', ['Levothyroxine']],
      ['Caninsulin', ['Insulin']],
      ['Lantus', ['Insulin']],
      ['Vetergesic', ['Buprenorphine']],
      ['Dexdomitor', ['Dexmedetomidine']],
      ['Bravecto', ['Fluralaner']],
      ['NexGard', ['Afoxolaner']],
      ['Simparica', ['Sarolaner']],
      ['Revolution', ['Selamectin']],
      ['Stronghold Plus', ['Sarolaner', 'Selamectin']],
      ['Milbemax', ['Milbemycin oxime', 'Praziquantel']],
      ['Droncit', ['Praziquantel']],
      ['Panacur', ['Fenbendazole']],
    ];
    for (const [brand, cards] of brands) {
      const a = await med(`${brand} for my dog`);
      expect(a.status, brand).toBe(true);
      expect(Object.keys(a.response!['Medication Details']), brand).toEqual(cards);
    }
    const two = await med('Stronghold Plus for a cat');
    expect(two.response!['Plain English Summary']).toContain("Check each against its product's label.");
  });

  it('works the dose out for the weight asked about, per kilogram or per animal as the reference states it', async () => {
    const dog = await med('carprofen for a 30 kg dog');
    expect(dog.response!['Plain English Summary']).toContain(
      'Carprofen for a 30 kg dog: 120 mg PO or SC once daily (4 mg/kg); 60 mg PO every 12 hours instead (2 mg/kg).',
    );
    const cat = await med('insulin for a 4 kg cat');
    expect(cat.response!['Plain English Summary']).toContain('1-2 IU SC every 12 hours');
    const perCat = await med('methimazole for a 4 kg cat');
    expect(perCat.response!['Plain English Summary']).toContain('1.25-2.5 mg per cat PO every 12 hours');
  });

  it('says so when a drug is not for the species, with no dose to check', async () => {
    const a = await med('NexGard for a 4 kg cat');
    expect(a.status).toBe(true);
    expect(a.response!['Plain English Concise']).toMatch(/^Afoxolaner is not for cats/);
    expect(a.response!['Plain English Summary']).not.toMatch(/mg\/kg|Check it/);
    const both = await med('afoxolaner for a dog and a cat');
    expect(both.response!['Plain English Summary']).toMatch(/Afoxolaner in dogs: 2\.7-7 mg\/kg PO once a month\./);
    expect(both.response!['Plain English Summary']).toMatch(/Afoxolaner is not for cats/);
    const unknown = await med('what can I give my cat for pain');
    expect(unknown).toMatchObject({
      status: false,
      reason: expect.stringMatching(/formulary.*carprofen.*fenbendazole/),
    });
  });

  it("answers every drug of the formulary's list that a treatment plan recommends, for the plan's species", () => {
    let checked = 0;
    for (const c of CONDITIONS) {
      const text = c.treatment.medications.toLowerCase();
      for (const d of DRUGS) {
        const word = d.ask.split(/[- ]/)[0]!;
        if (!new RegExp(`\\b${word}\\b`).test(text)) continue;
        for (const species of c.species) {
          const a = answerMedication(`${word} for a ${species}`);
          expect(a.status, `${c.id}: ${word} for a ${species}`).toBe(true);
          expect(Object.keys(a.response!['Medication Details']), `${c.id}: ${word}`).toContain(d.card);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
});
