// How a free-text history is read against the knowledge base: one normal form for text and
// terms, a table of equivalent wordings, phrase matching on word boundaries, and a negation
// check. Vets write "PU/PD", owners write "drinking and peeing a lot"; the knowledge base
// names a sign once, so the wordings of one sign are grouped here and every term matches
// all the wordings of its group. Longer than a module here should be: the table of wordings,
// the phrase patterns, the negation check and the scoring all work on one prepared text and
// its caches, and are kept together until that text has a module of its own.
import type { Condition } from './types.ts';

/**
 * Lowercase, plain punctuation, and one spelling: British forms become American ones
 * ("diarrhoea", "anaemia", "oedema", "behaviour"), applied alike to histories and to terms.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .replace(/aem/g, 'em')
    .replace(/oe(?=dem|soph|str)/g, 'e')
    .replace(/(rrh|pn)oea/g, '$1ea')
    .replace(/faec/g, 'fec')
    .replace(/caec/g, 'cec')
    .replace(/paed/g, 'ped')
    .replace(/anaesth/g, 'anesth')
    .replace(/\baet/g, 'et')
    .replace(/(behavi|tum|col|od|vap|lab|rig|fav|flav)our/g, '$1or')
    .replace(/(vocal|steril|hospital|immun)is(e|ed|es|ing|ation)\b/g, '$1iz$2');
}

// Each line is one sign in the wordings a history may use, clinical first. A term of the
// knowledge base that equals any wording matches all of them. Wordings are written in normal
// form (see normalizeText); hyphens and spaces are interchangeable.
export const SYNONYM_GROUPS: readonly (readonly string[])[] = [
  [
    'polyuria',
    'pu',
    'pu/pd',
    'pupd',
    'pu pd',
    'urinating a lot',
    'urinating more',
    'peeing a lot',
    'peeing more',
    'increased urination',
    'excessive urination',
    'large volumes of urine',
    'drinking and urinating',
    'drinking and peeing',
  ],
  [
    'polydipsia',
    'pd',
    'pu/pd',
    'pupd',
    'pu pd',
    'drinking a lot',
    'drinking more',
    'drinking lots',
    'drinking excessively',
    'increased thirst',
    'excessive thirst',
    'increased drinking',
    'excessive drinking',
    'very thirsty',
    'drinking and urinating',
    'drinking and peeing',
  ],
  [
    'polyphagia',
    'increased appetite',
    'ravenous appetite',
    'ravenous',
    'voracious appetite',
    'good appetite',
    'eating more',
    'always hungry',
    'hungry all the time',
  ],
  ['weight loss', 'losing weight', 'lost weight', 'weight-loss'],
  ['weight gain', 'gaining weight', 'gained weight'],
  ['vomiting', 'v+', 'emesis', 'being sick', 'throwing up', 'threw up', 'v/d'],
  ['diarrhea', 'd+', 'loose stool', 'loose stools', 'runny stool', 'runny stools', 'soft stool', 'soft stools', 'v/d'],
  ['lethargy', 'lethargic', 'listless', 'low energy', 'sleeping more', 'not himself', 'not herself'],
  [
    'anorexia',
    'anorexic',
    'inappetence',
    'inappetent',
    'hyporexia',
    'not eating',
    'off food',
    'off his food',
    'off her food',
    'off their food',
    'off its food',
    'reduced appetite',
    'decreased appetite',
    'poor appetite',
    'no appetite',
    "won't eat",
    'refusing food',
    "hasn't eaten",
    "hasn't been eating",
  ],
  ['tachycardia', 'tachycardic', 'high heart rate', 'fast heart rate', 'racing heart', 'elevated heart rate'],
  ['tachypnea', 'tachypneic', 'rapid breathing', 'fast breathing', 'breathing fast', 'increased respiratory rate'],
  [
    'dyspnea',
    'dyspneic',
    'difficulty breathing',
    'labored breathing',
    'respiratory distress',
    'breathing difficulty',
    'struggling to breathe',
    'open mouth breathing',
    'increased respiratory effort',
  ],
  ['panting', 'excessive panting'],
  ['cough', 'coughing', 'honking cough'],
  ['sneezing', 'sneeze'],
  [
    'pruritus',
    'pruritic',
    'itchy',
    'itching',
    'itchiness',
    'scratching',
    'licking paws',
    'paw licking',
    'chewing paws',
  ],
  [
    'alopecia',
    'hair loss',
    'losing hair',
    'bald patch',
    'bald patches',
    'balding',
    'fur loss',
    'thinning coat',
    'thin coat',
    'thin hair coat',
  ],
  [
    'symmetrical alopecia',
    'symmetric alopecia',
    'bilaterally symmetrical alopecia',
    'bilateral symmetrical alopecia',
    'bilateral alopecia',
    'symmetrical hair loss',
    'truncal alopecia',
  ],
  ['lameness', 'lame', 'limping', 'not bearing weight', 'non weight bearing'],
  [
    'stranguria',
    'straining to urinate',
    'straining to pee',
    'straining to wee',
    'strains to urinate',
    'urinary straining',
    'straining in the litter box',
    'straining in the litter tray',
    'posturing to urinate',
  ],
  ['dysuria', 'painful urination', 'pain on urination', 'pain urinating'],
  [
    'pollakiuria',
    'frequent urination',
    'urinating frequently',
    'frequent small urinations',
    'small frequent urinations',
    'frequent trips to the litter box',
    'in and out of the litter box',
  ],
  ['hematuria', 'blood in urine', 'blood in the urine', 'bloody urine', 'red urine', 'pink urine'],
  [
    'anuria',
    'unable to urinate',
    "can't urinate",
    'cannot urinate',
    'not passing urine',
    'no urine output',
    'blocked bladder',
  ],
  [
    'retching',
    'unproductive retching',
    'non productive retching',
    'nonproductive retching',
    'dry heaving',
    'trying to vomit',
    'attempting to vomit',
    'unproductive vomiting',
    'non productive vomiting',
  ],
  [
    'abdominal distension',
    'abdominal distention',
    'distended abdomen',
    'bloated abdomen',
    'bloated',
    'swollen abdomen',
    'swollen belly',
    'tympanic abdomen',
    'distended and tympanic abdomen',
  ],
  ['pot bellied', 'potbellied', 'pot belly', 'pendulous abdomen', 'abdominal enlargement'],
  ['restlessness', 'restless', 'pacing', 'agitated', 'unable to settle', "can't settle"],
  ['hypersalivation', 'ptyalism', 'drooling', 'salivating', 'excessive salivation'],
  ['collapse', 'collapsed', 'collapsing'],
  ['seizure', 'seizures', 'seizuring', 'convulsions', 'convulsing', 'fitting'],
  ['jaundice', 'icterus', 'icteric', 'jaundiced', 'yellow gums', 'yellow skin', 'yellow eyes'],
  ['pale mucous membranes', 'pale mm', 'pale mms', 'pale gums', 'pallor'],
  ['ataxia', 'ataxic', 'wobbly', 'incoordination', 'uncoordinated', 'stumbling'],
  ['head shaking', 'shaking head', 'shaking the head', 'shaking his head', 'shaking her head', 'shaking its head'],
  [
    'otic discharge',
    'ear discharge',
    'discharge from the ear',
    'discharge from the ears',
    'smelly ears',
    'ear odor',
    'malodorous ears',
  ],
  ['halitosis', 'bad breath', 'smelly breath'],
  ['glucosuria', 'glycosuria', 'glucose in urine', 'glucose in the urine', 'sugar in urine'],
  ['hyperglycemia', 'high blood glucose', 'high blood sugar', 'elevated blood glucose'],
  [
    'azotemia',
    'azotemic',
    'elevated creatinine',
    'high creatinine',
    'raised creatinine',
    'elevated urea',
    'high urea',
    'raised urea',
    'elevated bun',
    'high bun',
  ],
  ['heart murmur', 'murmur', 'systolic murmur'],
  [
    'exercise intolerance',
    'tires easily',
    'tiring easily',
    'reluctant to exercise',
    'reduced exercise tolerance',
    'decreased exercise tolerance',
  ],
  ['dehydration', 'dehydrated', 'skin tenting', 'prolonged skin tent', 'tacky mucous membranes', 'tacky mm'],
  ['fever', 'pyrexia', 'pyrexic', 'febrile', 'high temperature'],
  ['lymphadenopathy', 'enlarged lymph nodes', 'swollen lymph nodes', 'swollen glands', 'enlarged nodes'],
  ['hepatomegaly', 'enlarged liver'],
  [
    'palpable thyroid nodule',
    'thyroid nodule',
    'thyroid slip',
    'enlarged thyroid',
    'thyroid enlargement',
    'goiter',
    'goitre',
    'palpable thyroid',
  ],
  ['unkempt coat', 'unkempt hair coat', 'poor coat', 'poor hair coat', 'scruffy coat', 'matted coat', 'greasy coat'],
  ['vocalization', 'vocalizing', 'yowling', 'howling at night', 'crying at night'],
  ['constipation', 'constipated', 'hard stools', 'dyschezia'],
  [
    'hematochezia',
    'blood in stool',
    'blood in the stool',
    'bloody stool',
    'bloody stools',
    'bloody diarrhea',
    'fresh blood in feces',
  ],
  ['melena', 'black stool', 'black stools', 'tarry stool', 'tarry stools'],
  ['nasal discharge', 'runny nose', 'snotty nose', 'discharge from the nose'],
  ['ocular discharge', 'eye discharge', 'discharge from the eyes', 'runny eyes', 'watery eyes', 'epiphora'],
  ['muscle wasting', 'muscle loss', 'muscle atrophy', 'loss of muscle mass'],
  ['obesity', 'obese', 'overweight'],
  ['hypertension', 'high blood pressure', 'hypertensive'],
  [
    'abdominal pain',
    'painful abdomen',
    'pain on abdominal palpation',
    'tense abdomen',
    'cranial abdominal pain',
    'praying position',
  ],
  [
    'licking genitals',
    'genital licking',
    'licking the genitals',
    'licking the penis',
    'licking his penis',
    'licking the prepuce',
    'licking the vulva',
  ],
  ['regurgitation', 'regurgitating', 'regurgitates', 'regurgitated'],
  ['heat seeking', 'seeks warmth', 'cold intolerance'],
];

// Words that cancel a sign named shortly after them in the same clause ("no vomiting",
// "denies coughing", "negative for glucosuria"). "non" is left out: "non-productive
// retching" is a sign, not its absence.
const NEGATOR =
  /\b(?:no|not|without|denies|denied|deny|denying|negative|never|nor|absent|free of|ruled out|no longer|none|neither|nil|isn't|wasn't|hasn't|haven't|doesn't|didn't|don't|aren't|weren't)\b/;
// Where a clause ends: a negation does not reach past these.
const CLAUSE_BREAK = /[.;:!?\n,()[\]]|\b(?:but|however|although|though|except|yet|whereas|while)\b/g;
// Words after a sign that cancel it ("vomiting: none", "coughing - not seen").
// A diagnosis the vet weighed and put aside ("foreign body less likely") is not the patient's.
const AFTER_NEGATION =
  /^\s*(?:[:-]\s*(?:no|none|nil|negative|absent)\b|(?:\w+\s+){0,2}?(?:absent|denied|not (?:seen|present|noted|observed|reported)|resolved|ruled out|less likely|unlikely|doubtful|improbable)\b)/;
const HEDGE_BEFORE = /\b(?:unlikely|less likely|doubtful)\b/;
const NEGATION_WINDOW_WORDS = 5;
// A sign named after "if" in its sentence is one to watch for, not one the patient has: "recheck
// sooner if she vomits again, stops drinking or becomes lethargic" lists what has not happened.
// The whole sentence counts, since such a list runs over commas.
const CONDITIONAL = /\b(?:if|unless|in case|should (?:he|she|it|they|the \w+)|watch for|look out for|monitor for)\b/;
const SENTENCE_BREAK = /[.;!?\n]/g;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

// Inflections a history uses for a listed word: "vomiting" also reads "vomits", "vomited";
// the last word of a phrase may be plural.
function wordPattern(word: string, last: boolean): string {
  if (!/^[a-z]+$/.test(word)) return escapeRe(word);
  if (word.endsWith('ing') && word.length >= 6) return `${word.slice(0, -3)}(?:ing|e[sd]|[sd]|e)?`;
  if (!last) return word;
  if (word.endsWith('y') && word.length > 3) return `${word.slice(0, -1)}(?:y|ies)`;
  if (word.endsWith('s')) return word;
  return `${word}(?:e?s)?`;
}

const compiled = new Map<string, RegExp>();

/** The word-bounded pattern of one wording (in normal form); spaces and hyphens interchange. */
export function phrasePattern(wording: string): RegExp {
  let re = compiled.get(wording);
  if (!re) {
    const words = wording.split(/[\s-]+/).filter(Boolean);
    const body = words.map((w, i) => wordPattern(w, i === words.length - 1)).join(String.raw`[\s-]+`);
    // Boundaries only where the wording starts or ends with a letter: "v+" may touch "d+".
    const head = /^\w/.test(wording) ? String.raw`(?<!\w)` : '';
    const tail = /\w$/.test(wording) ? String.raw`(?!\w)` : '';
    re = new RegExp(head + body + tail, 'g');
    compiled.set(wording, re);
  }
  return re;
}

const groupsOf = new Map<string, number[]>();
SYNONYM_GROUPS.forEach((group, index) => {
  for (const wording of group) groupsOf.set(wording, [...(groupsOf.get(wording) ?? []), index]);
});

const wordingsOf = new Map<string, string[]>();

/** All wordings of a term: itself and every wording of the groups it belongs to. */
export function termWordings(term: string): string[] {
  let wordings = wordingsOf.get(term);
  if (!wordings) {
    const normal = normalizeText(term).trim().replace(/\s+/g, ' ');
    const all = new Set([normal]);
    for (const index of groupsOf.get(normal) ?? []) for (const w of SYNONYM_GROUPS[index] ?? []) all.add(w);
    wordings = [...all];
    wordingsOf.set(term, wordings);
  }
  return wordings;
}

/** A stable key for "the same sign": the first group a term belongs to, else the term. */
export function signKey(term: string): string {
  const normal = normalizeText(term).trim().replace(/\s+/g, ' ');
  const index = groupsOf.get(normal)?.[0];
  return index === undefined ? normal : `group:${index}`;
}

/** A history prepared once for many look-ups. */
export interface Prepared {
  /** The input as given. */
  original: string;
  /** normalizeText(original); every position below is in this text. */
  text: string;
  /** `text` with the wordings that contain a negation word blanked, so "not eating and
   * vomiting" does not read as "not ... vomiting". Same length as `text`. */
  masked: string;
}

// Wordings such as "not eating" or "no appetite" name a sign with a negation word in them.
const NEGATIVE_WORDINGS = SYNONYM_GROUPS.flat().filter((w) => NEGATOR.test(w));

export function prepare(input: string): Prepared {
  const text = normalizeText(input);
  let masked = text;
  for (const wording of NEGATIVE_WORDINGS) masked = masked.replace(phrasePattern(wording), (m) => ' '.repeat(m.length));
  return { original: input, text, masked };
}

export interface Hit {
  start: number;
  end: number;
  /** The words as written (normal form). */
  text: string;
  negated: boolean;
}

/** Whether the words at `start` are in a sentence that says what to do if they happen. */
export function isConditional(p: Prepared, start: number): boolean {
  const before = p.masked.slice(Math.max(0, start - 160), start);
  let sentenceStart = 0;
  for (const m of before.matchAll(SENTENCE_BREAK)) sentenceStart = m.index + m[0].length;
  return CONDITIONAL.test(before.slice(sentenceStart));
}

/** Whether the words at start..end are negated in their clause, or only a condition. */
export function isNegated(p: Prepared, start: number, end: number): boolean {
  const before = p.masked.slice(Math.max(0, start - 80), start);
  let clauseStart = 0;
  for (const m of before.matchAll(CLAUSE_BREAK)) clauseStart = m.index + m[0].length;
  const words = before.slice(clauseStart).trim().split(/\s+/).filter(Boolean).slice(-NEGATION_WINDOW_WORDS);
  if (NEGATOR.test(words.join(' ')) || HEDGE_BEFORE.test(words.join(' '))) return true;
  if (isConditional(p, start)) return true;
  const after = p.masked.slice(end, end + 40).split(/[.;,\n]/)[0] ?? '';
  return AFTER_NEGATION.test(after);
}

/** Every place a term (in any of its wordings) occurs, each with its negation. */
export function findTerm(p: Prepared, term: string): Hit[] {
  const hits: Hit[] = [];
  for (const wording of termWordings(term)) {
    if (wording === '') continue;
    for (const m of p.text.matchAll(phrasePattern(wording))) {
      const start = m.index;
      const end = start + m[0].length;
      if (hits.some((h) => h.start === start && h.end === end)) continue;
      hits.push({ start, end, text: m[0], negated: isNegated(p, start, end) });
    }
  }
  // "pd" inside "pu/pd" is the same mention, not a second one.
  const outer = hits.filter((h) => !hits.some((o) => o !== h && o.start <= h.start && h.end <= o.end));
  return outer.sort((a, b) => a.start - b.start);
}

// Breed groups that predispositions name ("large breed", "deep-chested", "brachycephalic").
const BREED_GROUPS: readonly (readonly [RegExp, readonly string[]])[] = [
  [
    /\b(?:great danes?|(?:saint|st\.?) bernards?|newfoundlands?|newfies?|mastiffs?|(?:irish )?wolfhounds?|leonbergers?|bernese|cane corsos?)\b/,
    ['giant', 'large', 'deep-chested', 'purebred'],
  ],
  [
    /\b(?:german shepherds?|gsds?|labradors?|retrievers?|rottweilers?|dobermann?s?|weimaraners?|standard poodles?|boxers?|setters?|akitas?|bloodhounds?|ridgebacks?|huskies|husky|malamutes?|vizslas?|pointers?)\b/,
    ['large', 'purebred'],
  ],
  [
    /\b(?:great danes?|standard poodles?|weimaraners?|setters?|german shepherds?|dobermann?s?|boxers?|(?:saint|st\.?) bernards?|bloodhounds?|akitas?|basset(?: hounds?)?|greyhounds?|wolfhounds?)\b/,
    ['deep-chested'],
  ],
  [
    /\b(?:chihuahuas?|yorkies?|yorkshire terriers?|pomeranians?|maltese|(?:toy|miniature|mini) poodles?|shih[\s-]?tzus?|dachshunds?|bichons?|cavaliers?|ckcs|jack russells?|jrts?|pugs?|papillons?|(?:miniature|mini) schnauzers?|lhasa apsos?|westies?|west highland)\b/,
    ['small', 'toy', 'purebred'],
  ],
  [
    /\b(?:pugs?|(?:english |french )?bulldogs?|frenchies|boxers?|shih[\s-]?tzus?|boston terriers?|pekingese|cavaliers?|persians?|exotic shorthairs?|himalayans?)\b/,
    ['brachycephalic', 'purebred'],
  ],
  [
    /\b(?:poodles?|schnauzers?|beagles?|spaniels?|siamese|burmese|maine coons?|ragdolls?|bengals?|abyssinians?|sphynx|british shorthairs?)\b/,
    ['purebred'],
  ],
];

// Abbreviations and words of signalment, and what they imply.
const IMPLIED: Readonly<Record<string, readonly string[]>> = {
  dsh: ['domestic', 'shorthair'],
  dlh: ['domestic', 'longhair'],
  dmh: ['domestic', 'mediumhair'],
  bitch: ['female'],
  mn: ['male', 'neutered', 'castrated'],
  mc: ['male', 'neutered', 'castrated'],
  fs: ['female', 'spayed', 'neutered'],
  fn: ['female', 'spayed', 'neutered'],
  mi: ['male', 'intact', 'entire'],
  me: ['male', 'intact', 'entire'],
  mk: ['male', 'intact', 'entire'],
  fi: ['female', 'intact', 'entire'],
  fe: ['female', 'intact', 'entire'],
  tom: ['male', 'intact', 'entire'],
  queen: ['female', 'intact', 'entire'],
  castrated: ['neutered'],
  spayed: ['neutered'],
  neuter: ['neutered'],
  spay: ['spayed', 'neutered'],
  entire: ['intact'],
  intact: ['entire'],
};

const singular = (word: string): string =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

/** Age in years when the history gives one ("12 yo", "8 year old", "7 years", "10 months"). */
export function ageInYears(p: Prepared): number | undefined {
  const years = /(\d+(?:\.\d+)?)\s*-?\s*(?:y\/o|yo|yos|yrs?|years?)(?![a-z])/.exec(p.text);
  if (years?.[1]) return Number(years[1]);
  const months = /(\d+)\s*-?\s*(?:m\/o|mos?|months?)(?![a-z])/.exec(p.text);
  if (months?.[1]) return Number(months[1]) / 12;
  const weeks = /(\d+)\s*-?\s*(?:wks?|weeks?)(?:[\s-]*old)(?![a-z])/.exec(p.text);
  if (weeks?.[1]) return Number(weeks[1]) / 52;
  return undefined;
}

// Signalment words a history may state outright. Sizes are left out ("a large meal" is no
// large breed): they come from the breed table or from "large breed" as written.
const STATED_SIGNALMENT = new Set([
  'male',
  'female',
  'neutered',
  'castrated',
  'spayed',
  'intact',
  'entire',
  'senior',
  'older',
  'geriatric',
  'young',
  'juvenile',
  'puppy',
  'kitten',
  'adult',
  'middle-aged',
  'purebred',
  'pedigree',
  'obese',
  'overweight',
  'indoor',
  'outdoor',
  'pregnant',
  'lactating',
  'working',
  'sedentary',
  'brachycephalic',
  'deep-chested',
]);

/**
 * The signalment a history states or implies, as singular words: "12 yo MN DSH" reads as
 * senior, older, male, neutered; "Great Dane" as giant, large, deep-chested.
 */
export function signalmentWords(p: Prepared, species: readonly string[] = []): Set<string> {
  const tokens = p.text
    .split(/[^a-z0-9'-]+/)
    .filter(Boolean)
    .map(singular);
  const words = new Set(tokens.filter((t) => STATED_SIGNALMENT.has(t)));
  for (const token of tokens) for (const implied of IMPLIED[token] ?? []) words.add(implied);
  for (const [pattern, implied] of BREED_GROUPS) if (pattern.test(p.text)) for (const w of implied) words.add(w);
  for (const m of p.text.matchAll(/\b(giant|large|medium|small|toy)[\s-]+breed/g)) if (m[1]) words.add(m[1]);
  const age = ageInYears(p);
  if (age !== undefined) {
    // Cats are "senior" later than dogs; with no species, the dog threshold.
    const senior = species.includes('cat') && !species.includes('dog') ? 10 : 8;
    if (age >= senior) ['senior', 'older', 'geriatric', 'mature'].forEach((w) => words.add(w));
    if (age >= 4 && age < senior + 2) ['middle-aged', 'adult', 'mature'].forEach((w) => words.add(w));
    if (age >= 1 && age < 4) ['young', 'adult'].forEach((w) => words.add(w));
    if (age < 1) ['young', 'juvenile', 'puppy', 'kitten'].forEach((w) => words.add(w));
  }
  return words;
}

const PREDISPOSITION_FILLER = new Set([
  'a',
  'an',
  'the',
  'and',
  'in',
  'of',
  'with',
  'especially',
  'particularly',
  'breed',
  'age',
  'aged',
  'dog',
  'cat',
  'canine',
  'feline',
  'year',
  'old',
  'than',
  'more',
  'often',
  'common',
  'commonly',
  'typically',
  'usually',
  'mostly',
  'animal',
  'pet',
]);

/**
 * Whether a predisposition ("middle-aged to older dogs", "female intact", "large breed",
 * "Great Danes", "cats over 10 years") applies to a history. It is read as alternatives split
 * on "to", "or", "/" and ","; one applies when it is written in the history, when it gives an
 * age bound the history's age meets, or when all its words are in the signalment.
 */
export function predispositionApplies(predisposition: string, p: Prepared, words: ReadonlySet<string>): boolean {
  const age = ageInYears(p);
  const alternatives = normalizeText(predisposition).split(/\s+(?:to|or)\s+|[/,;]/);
  return alternatives.some((alternative) => {
    const bound = /(over|older than|above|>|under|younger than|below|<)\s*(\d+(?:\.\d+)?)\s*(?:years?|yrs?|y)?\b/.exec(
      alternative,
    );
    if (bound?.[1] && bound[2]) {
      if (age === undefined) return false;
      return /over|older|above|>/.test(bound[1]) ? age > Number(bound[2]) : age < Number(bound[2]);
    }
    const singularWords = alternative
      .split(/[^a-z0-9'-]+/)
      .filter(Boolean)
      .map(singular);
    const keys = singularWords.filter((w) => !PREDISPOSITION_FILLER.has(w) && !/^\d/.test(w));
    if (keys.length === 0) return false;
    if (findTerm(p, singularWords.join(' ')).some((h) => !h.negated)) return true;
    return keys.every((k) => words.has(k));
  });
}

/** One condition scored against a history. */
export interface Ranked {
  condition: Condition;
  score: number;
  /** The signs counted, strongest first, with the words of the history that showed them. */
  signs: { term: string; weight: number; text: string; start: number; end: number }[];
  /** The history names the condition (its name or an alias), not negated. */
  named: boolean;
  predispositions: string[];
}

// A named condition outweighs any two strong signs: the vet has a diagnosis in mind.
const NAMED_BONUS = 6;
const MAX_PREDISPOSITION_BONUS = 3;

// A name is matched as written, never through the sign wordings ("PD" is periodontal disease
// here, not polydipsia). Short all-capital aliases ("HT", "DM", "PD") also read as ordinary
// words in lowercase; they count only when the history writes them in capitals, and not as
// part of a compound such as "PU/PD".
function aliasHits(p: Prepared, alias: string): Hit[] {
  const wording = normalizeText(alias).trim().replace(/\s+/g, ' ');
  if (wording === '') return [];
  if (
    /^[A-Z0-9]{1,4}$/.test(alias) &&
    !new RegExp(String.raw`(?<![\w/+])${escapeRe(alias)}(?![\w/+])`).test(p.original)
  )
    return [];
  return [...p.text.matchAll(phrasePattern(wording))].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    text: m[0],
    negated: isNegated(p, m.index, m.index + m[0].length),
  }));
}

/** Whether the history names the condition (name or alias): 'yes', 'negated' or 'no'. */
export function namesCondition(p: Prepared, condition: Condition): 'yes' | 'negated' | 'no' {
  const hits = [condition.name, ...condition.aliases].flatMap((alias) => aliasHits(p, alias));
  if (hits.some((h) => !h.negated)) return 'yes';
  return hits.length > 0 ? 'negated' : 'no';
}

/**
 * Score one condition: the weights of the signs the history shows (each sign once; a sign
 * inside a longer matched sign, e.g. "retching" inside "unproductive retching", does not
 * count again), a bonus when the condition is named, and a point for each predisposition
 * that applies (at most three, and at most half of the rest).
 */
export function scoreCondition(p: Prepared, condition: Condition, words: ReadonlySet<string>): Ranked {
  const found = condition.signs
    .map(([term, weight]) => {
      return { term, weight, key: signKey(term), hits: findTerm(p, term).filter((h) => !h.negated) };
    })
    .filter((s) => s.hits.length > 0);
  const longest = (s: { hits: Hit[] }): number => Math.max(0, ...s.hits.map((h) => h.end - h.start));
  const claimed: { start: number; end: number; key: string }[] = [];
  const signs: Ranked['signs'] = [];
  for (const sign of found.sort((a, b) => longest(b) - longest(a) || b.weight - a.weight)) {
    const own = sign.hits.filter(
      (h) =>
        !claimed.some(
          (c) => c.start <= h.start && h.end <= c.end && (c.end - c.start > h.end - h.start || c.key === sign.key),
        ),
    );
    if (own.length === 0) continue;
    for (const h of own) claimed.push({ start: h.start, end: h.end, key: sign.key });
    const at = own[0];
    if (at) signs.push({ term: sign.term, weight: sign.weight, text: at.text, start: at.start, end: at.end });
  }
  signs.sort((a, b) => b.weight - a.weight || a.start - b.start);
  const named = namesCondition(p, condition) === 'yes';
  const base = signs.reduce((sum, s) => sum + s.weight, 0) + (named ? NAMED_BONUS : 0);
  const predispositions = base > 0 ? condition.predispositions.filter((d) => predispositionApplies(d, p, words)) : [];
  return {
    condition,
    // Signalment refines a match and never makes one: at most half the rest of the score.
    score: base + Math.min(MAX_PREDISPOSITION_BONUS, predispositions.length, base / 2),
    signs,
    named,
    predispositions,
  };
}

/** The signs of these conditions that a history mentions only to deny, as written, in order. */
export function deniedSigns(p: Prepared, conditions: readonly Condition[]): string[] {
  const denied = new Map<number, string>();
  for (const c of conditions) {
    for (const [term] of c.signs) {
      // A sign only watched for ("call if she becomes lethargic") was not said to be absent either.
      const hits = findTerm(p, term).filter((h) => !isConditional(p, h.start));
      if (hits.length > 0 && hits.every((h) => h.negated)) for (const h of hits) denied.set(h.start, h.text);
    }
  }
  return [...new Set([...denied.entries()].sort(([a], [b]) => a - b).map(([, text]) => text))];
}

/** The signalment rules the condition out (a pyometra in a male or a spayed bitch). */
export function ruledOut(condition: Condition, words: ReadonlySet<string>): boolean {
  return (condition.ruledOutBy ?? []).some((all) => all.every((w) => words.has(w)));
}

// A disease chiefly of the young, in an older patient: a third of its score.
const ADULT_FACTOR = 1 / 3;

/** The conditions a history points to, best first (ties: more strong signs, then id). */
export function rankConditions(
  p: Prepared,
  conditions: readonly Condition[],
  species: readonly string[] = [],
): Ranked[] {
  const words = signalmentWords(p, species);
  const age = ageInYears(p);
  return conditions
    .filter((c) => !ruledOut(c, words))
    .map((c) => {
      const ranked = scoreCondition(p, c, words);
      const adult = c.chieflyUnderYears !== undefined && age !== undefined && age >= c.chieflyUnderYears;
      return adult && !ranked.named ? { ...ranked, score: ranked.score * ADULT_FACTOR } : ranked;
    })
    .filter((r) => r.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.signs.filter((s) => s.weight === 3).length - a.signs.filter((s) => s.weight === 3).length ||
        (a.condition.id < b.condition.id ? -1 : a.condition.id > b.condition.id ? 1 : 0),
    );
}
