// Which animal species a free text names. The treatment-plan agent
// (`POST /treatment_plan_agent_v2`) needs the species, so the app warns before sending an input
// without one and the sandbox refuses it; both use this one function.
//
// Matching is word-bounded and case-insensitive. All phrases are alternatives of one regular
// expression, tried in order at each position, so a longer phrase listed first consumes its
// words: "guinea pig" is not also a pig, "rat terrier" is a dog, and the "ignore" phrases
// ("fish oil", "hot dog", "canine tooth", "lamb and rice") consume words that would otherwise
// read as a species. Sex abbreviations (MN, FS, MI, FI) name no species and are not listed.

export const SPECIES = [
  'dog',
  'cat',
  'rabbit',
  'ferret',
  'guinea pig',
  'hamster',
  'gerbil',
  'rat',
  'mouse',
  'chinchilla',
  'hedgehog',
  'rodent',
  'bird',
  'reptile',
  'amphibian',
  'fish',
  'horse',
  'donkey',
  'cattle',
  'sheep',
  'goat',
  'pig',
  'camelid',
] as const;

export type Species = (typeof SPECIES)[number];

type Entry = readonly [Species | null, string];

const W = String.raw`[\s-]+`;
const O = String.raw`[\s-]*`;

// Words that look like a species but, in these phrases, are food, anatomy, objects or idioms.
const IGNORE: readonly string[] = [
  String.raw`(?:kangaroo|venison|rabbit|duck|fish|salmon|lamb|chicken|turkey|beef|pork|horse|goat)${W}(?:(?:and|&|with)${W}(?:rice|potato|sweet${W}potato|peas?|oats?|barley|pumpkin|veg\w*)|based|diet|meal|protein|flavou?r|meat|broth|jerky|kibble|food|treats?|liver|oil|milk)`,
  String.raw`fish${W}oils?`,
  String.raw`hot${W}dogs?`,
  String.raw`cat${W}scans?`,
  String.raw`computer${W}mouse`,
  String.raw`mouse${W}(?:click|button|pointer|cursor|pad|wheel)s?`,
  String.raw`rat${W}(?:poison|bait)s?`,
  String.raw`mouse${W}(?:poison|bait)s?`,
  String.raw`pig${O}'?s?${O}ears?`,
  String.raw`(?:porcine|bovine)${W}(?:insulin|lente|zinc|serum|albumin|colostrum|collagen|pericardium)`,
  String.raw`canines?${W}(?:tooth|teeth)`,
  String.raw`(?:maxillary|mandibular|upper|lower|left|right|fractured|broken|deciduous|retained|worn)${W}canines?`,
  String.raw`horse${W}chestnuts?`,
  String.raw`charley${W}horse`,
  String.raw`siamese${W}twins?`,
  String.raw`persian${W}(?:rugs?|carpets?|language|gulf|empire|cuisine|poetry|poem)`,
  String.raw`bay${W}of${W}bengal`,
  String.raw`bengal${W}tigers?`,
  String.raw`boxer${W}(?:shorts|briefs)`,
  String.raw`canary${W}islands?`,
];

// Multi-word names that contain another species' word come before that word's entry.
const PHRASES: readonly Entry[] = [
  ['guinea pig', String.raw`guinea${W}pigs?|cav(?:y|ies)`],
  [
    'dog',
    String.raw`rat${W}terriers?|(?:australian${W})?cattle${W}dogs?|bird${W}dogs?|bull${W}terriers?|pit${O}bulls?(?:${W}terriers?)?`,
  ],
  ['cat', String.raw`tom${O}cats?`],
  ['pig', String.raw`(?:pot${W}bellied|micro|mini|miniature)${W}pigs?`],
  [
    'reptile',
    String.raw`(?:ball|royal|burmese|carpet|reticulated)${W}pythons?|boa${W}constrictors?|bearded${W}dragons?`,
  ],
  ['amphibian', String.raw`african${W}clawed${W}frogs?`],
];

const DOG_BREEDS = [
  'labradors?',
  'labradoodles?',
  'goldendoodles?',
  'cockapoos?',
  'cavapoos?',
  'retrievers?',
  `german${W}shepherds?`,
  `australian${W}shepherds?`,
  'gsds?',
  'alsatians?',
  'beagles?',
  'dachshunds?',
  'doxies?',
  'chihuahuas?',
  'rottweilers?',
  'rotties?',
  'dobermanns?',
  'dobermans?',
  `great${W}danes?`,
  `siberian${W}husk(?:y|ies)`,
  'huskies',
  'malamutes?',
  `shih${O}tzus?`,
  `lhasa${W}apsos?`,
  'maltese',
  'yorkies?',
  'terriers?',
  'westies?',
  'whwts?',
  'jrts?',
  'schnauzers?',
  'spaniels?',
  `cavalier${W}king${W}charles(?:${W}spaniels?)?`,
  'ckcs',
  'collies?',
  'shelties?',
  'sheepdogs?',
  'poodles?',
  'bulldogs?',
  'frenchies',
  'pugs?',
  `bichons?(?:${W}fris[eé]s?)?`,
  'pomeranians?',
  'papillons?',
  'corgis?',
  'weimaraners?',
  'vizslas?',
  'greyhounds?',
  'whippets?',
  'lurchers?',
  'mastiffs?',
  'newfies?',
  `(?:saint|st[.]?)${W}bernards?`,
  'bernese',
  'akitas?',
  `shiba(?:${W}inus?)?`,
  'samoyeds?',
  `shar${O}peis?`,
  `chow${W}chows?`,
  'dalmatians?',
  'staff(?:y|ie|ies)',
  'staffordshires?',
  `cane${W}corsos?`,
  'basenjis?',
  'bloodhounds?',
  'hounds?',
  'wolfhounds?',
  'pekingese',
  'havanese',
  `jack${W}russells?`,
  'springers?',
  `(?:irish|english|gordon|red)${W}setters?`,
  `(?:german${W}(?:short|wire)haired|english)${W}pointers?`,
  'boxer',
  'ridgebacks?',
  'leonbergers?',
  'mongrels?',
  'mutts?',
];

const CAT_BREEDS = [
  'siamese',
  'persians?',
  `maine${W}coons?`,
  'bengal',
  'ragdolls?',
  `(?:british|american|exotic)${W}short${O}hairs?`,
  'sphynx(?:es)?',
  `russian${W}blues?`,
  'abyssinians?',
  'burmese',
  `scottish${W}folds?`,
  `norwegian${W}forest(?:${W}cats?)?`,
  'birmans?',
  `(?:devon|cornish|selkirk)${W}rex(?:es)?`,
  'tonkinese',
  'ocicats?',
  'manx',
  `domestic${W}(?:short|long|medium)${O}hair(?:ed|s)?`,
  'dsh|dlh|dmh',
  'mogg(?:y|ie|ies)',
];

const SPECIES_WORDS: readonly Entry[] = [
  [
    'dog',
    String.raw`dogs?|dogg(?:y|ie|ies|o|os)|canines?|pupp(?:y|ies)|pups?|k-?9s?|pooch(?:es)?|whelp(?:s|ing|ed)?|(?:entire|intact|spayed|pregnant|whelping|breeding|brood|in${W}whelp|nursing|lactating)${W}bitch(?:es)?|bitch${W}spays?`,
  ],
  ['dog', DOG_BREEDS.join('|')],
  [
    'cat',
    String.raw`cats?|kittens?|kitt(?:y|ies)|felines?|queening|(?:entire|intact|spayed|pregnant|breeding|nursing|lactating)${W}queens?`,
  ],
  ['cat', CAT_BREEDS.join('|')],
  [
    'rabbit',
    String.raw`rabbits?|bunn(?:y|ies)|lagomorphs?|(?:holland|mini|french|english)${W}lops?|netherland${W}dwarfs?`,
  ],
  ['ferret', 'ferrets?'],
  ['hamster', 'hamsters?'],
  ['gerbil', 'gerbils?'],
  ['rat', 'rats?'],
  ['mouse', 'mouse|mice'],
  ['chinchilla', 'chinchillas?'],
  ['hedgehog', 'hedgehogs?'],
  ['rodent', String.raw`rodents?|pocket${W}pets?`],
  [
    'bird',
    String.raw`birds?|avian|parrots?|budgies?|budgerigars?|cockatiels?|cockatoos?|macaws?|parakeets?|lovebirds?|canar(?:y|ies)|finch(?:es)?|conures?|african${W}greys?|chickens|hens|roosters?|cockerels?|pigeons?|owls?`,
  ],
  ['reptile', 'reptiles?|lizards?|geckos?|iguanas?|chameleons?|snakes?|tortoises?|turtles?|terrapins?|chelonians?'],
  ['amphibian', 'amphibians?|frogs?|toads?|axolotls?|newts?|salamanders?'],
  ['fish', String.raw`goldfish|koi|bettas?|(?:pet|aquarium|tropical|pond)${W}fish`],
  ['horse', 'horses?|equines?|equids?|pon(?:y|ies)|mares?|stallions?|geldings?|foals?|fill(?:y|ies)|thoroughbreds?'],
  ['donkey', 'donkeys?|burros?|mules?'],
  ['cattle', 'cattle|cows?|bovines?|calf|calves|heifers?|bullocks?|oxen'],
  ['sheep', 'sheep|ovines?|ewes?'],
  ['goat', 'goats?|caprines?'],
  ['pig', 'pigs?|piglets?|porcine|swine'],
  ['camelid', 'alpacas?|llamas?|camelids?|camels?'],
];

const ENTRIES: readonly Entry[] = [...IGNORE.map((source): Entry => [null, source]), ...PHRASES, ...SPECIES_WORDS];

// One capture group per entry, so the group that matched tells the species.
const MATCHER = new RegExp(
  String.raw`(?<!\w)(?:${ENTRIES.map(([, source]) => `(${source})`).join('|')})(?![\w])`,
  'giu',
);

/** The species a text names, each once, in the order they first appear. */
export function detectSpecies(text: string): Species[] {
  const found: Species[] = [];
  for (const match of text.matchAll(MATCHER)) {
    const index = match.findIndex((group, i) => i > 0 && group !== undefined);
    const species = ENTRIES[index - 1]?.[0];
    if (species && !found.includes(species)) found.push(species);
  }
  return found;
}

export function hasSpecies(text: string): boolean {
  return detectSpecies(text).length > 0;
}
