import type { Condition } from '../types.ts';

export const SKIN_EAR_EYE: Condition[] = [
  {
    id: 'atopic-dermatitis',
    name: 'Atopic dermatitis',
    aliases: [
      'atopy',
      'AD',
      'CAD',
      'canine atopic dermatitis',
      'environmental allergy',
      'FASS',
      'feline atopic skin syndrome',
    ],
    species: ['dog', 'cat'],
    signs: [
      ['pruritus', 2],
      ['itchy', 2],
      ['scratching', 1],
      ['paw licking', 3],
      ['foot chewing', 3],
      ['face rubbing', 2],
      ['erythema', 1],
      ['seasonal itching', 3],
      ['recurrent otitis', 2],
      ['axillary erythema', 2],
      ['lichenification', 2],
      ['hyperpigmentation', 1],
      ['saliva staining', 2],
      ['miliary dermatitis', 1],
    ],
    predispositions: [
      'young adult',
      'west highland white terrier',
      'labrador',
      'golden retriever',
      'french bulldog',
      'boxer',
      'shar pei',
      'german shepherd',
    ],
    ddx: {
      name: 'Atopic dermatitis',
      cause_etiology:
        'A genetically predisposed, inflammatory and pruritic skin disease associated with IgE to environmental allergens (house dust mites, pollens, moulds) and a defective skin barrier; flares are often driven by secondary bacterial or Malassezia infection.',
      commonly_confused_with:
        'Flea allergy dermatitis, cutaneous adverse food reaction, sarcoptic mange, superficial pyoderma and Malassezia dermatitis.',
      diagnosis_rule_outs:
        'A clinical diagnosis after excluding other itchy diseases: strict flea control, skin scrapes or a scabies trial, cytology for infection, and an eight-week elimination diet trial. Intradermal or serum allergy testing selects allergens for immunotherapy; it does not diagnose atopy.',
      prognosis:
        'Good for control, but the disease is lifelong and flares recur; most dogs reach good quality of life with a multimodal plan.',
      risk_factors_predispositions:
        'Onset usually between six months and three years; West Highland White Terriers, Labradors, Golden Retrievers, French Bulldogs, Boxers, Shar Peis and German Shepherds.',
      symptoms_clinical_signs:
        'Pruritus of the face, ears, paws, axillae, ventrum and perineum, with erythema, saliva staining, recurrent otitis externa and, in chronic cases, lichenification and hyperpigmentation. Cats show miliary dermatitis, self-induced alopecia, head and neck pruritus or eosinophilic lesions.',
    },
    treatment: {
      diagnosis_name: 'Atopic dermatitis',
      treatment_plan_name: 'Multimodal allergy management',
      treatment_goal:
        'Control pruritus and inflammation, treat and prevent secondary infections, restore the skin barrier and reduce flares over the long term.',
      medications:
        "Oclacitinib (a JAK inhibitor), lokivetmab (an anti-IL-31 monoclonal antibody), ciclosporin or short courses of glucocorticoids for flares; antimicrobials only for confirmed secondary infection; dose per current formulary and the patient's weight.",
      dietary_management:
        'Omega-3 fatty acid supplementation or a skin-support diet may help; an elimination diet trial to rule out concurrent food allergy.',
      lifestyle_modifications:
        'Reduce exposure to allergens where possible (wipe paws after walks, wash bedding) and keep year-round flea control.',
      symptom_management:
        'Regular bathing with antiseptic or soothing shampoos, topical glucocorticoid sprays for localised lesions and ear cleaning for otitis.',
      'non-surgical_options':
        'Allergen-specific immunotherapy (injections or sublingual) based on allergy testing, the only treatment that alters the course of the disease.',
      possible_surgical_options:
        'Surgery is not part of management; it may be considered only for end-stage ear canal disease from chronic allergic otitis.',
      preventative_options:
        'No cure or prevention; consistent flea control and barrier care reduce flares, and affected dogs should not be bred.',
      regular_veterinary_monitoring:
        'Recheck two to four weeks after starting therapy, then every three to six months, with cytology at flares and bloodwork for long-term medications as required.',
      owner_education:
        'Atopy is managed, not cured; flares are expected and should be treated early; keep a diary of itch scores and triggers.',
    },
  },
  {
    id: 'flea-allergy-dermatitis',
    name: 'Flea allergy dermatitis',
    aliases: ['FAD', 'flea allergy', 'flea bite hypersensitivity', 'flea dermatitis'],
    species: ['dog', 'cat'],
    signs: [
      ['pruritus', 2],
      ['itchy', 2],
      ['fleas seen', 3],
      ['flea dirt', 3],
      ['lumbosacral pruritus', 3],
      ['tail base alopecia', 3],
      ['miliary dermatitis', 3],
      ['scratching', 1],
      ['hot spots', 2],
      ['pyotraumatic dermatitis', 2],
      ['papules', 1],
      ['over-grooming', 2],
      ['alopecia', 1],
    ],
    predispositions: ['any age', 'outdoor access', 'multi-pet household', 'irregular flea control', 'summer'],
    ddx: {
      name: 'Flea allergy dermatitis',
      cause_etiology:
        'A hypersensitivity reaction to antigens in flea saliva (Ctenocephalides felis); a few bites are enough to cause intense pruritus in a sensitised animal.',
      commonly_confused_with:
        'Atopic dermatitis, cutaneous adverse food reaction, sarcoptic mange, cheyletiellosis and superficial pyoderma.',
      diagnosis_rule_outs:
        'Typical distribution with fleas or flea dirt on combing (wet paper test); absence of fleas does not rule it out, so the diagnosis is often confirmed by response to rigorous flea control of all in-contact animals.',
      prognosis: 'Excellent with consistent year-round flea control of every pet in the household.',
      risk_factors_predispositions:
        'Any age, often from a few years old; exposure to other animals, outdoor access, warm seasons and irregular flea prevention; atopic animals are more often affected.',
      symptoms_clinical_signs:
        'Dogs: pruritus, papules, crusts and alopecia over the lumbosacral region, tail base, caudal thighs and ventral abdomen, with pyotraumatic dermatitis. Cats: miliary dermatitis, over-grooming, symmetrical alopecia and eosinophilic lesions.',
    },
    treatment: {
      diagnosis_name: 'Flea allergy dermatitis',
      treatment_plan_name: 'Rigorous flea control and itch relief',
      treatment_goal:
        'Eliminate fleas from the animal and its environment and control pruritus and secondary infection.',
      medications:
        "Fast-acting adulticides such as isoxazolines (fluralaner, afoxolaner, sarolaner) or spinosad for every pet in the household; a short course of glucocorticoids or oclacitinib for the itch, and antimicrobials for secondary pyoderma; dose per current formulary and the patient's weight.",
      dietary_management: 'No specific diet; omega-3 fatty acids may support skin recovery.',
      lifestyle_modifications: 'Treat all dogs and cats in the home, and limit contact with untreated animals.',
      symptom_management:
        'Soothing or antiseptic shampoos, topical treatment of hot spots and clipping of affected areas.',
      'non-surgical_options':
        'Environmental control: frequent vacuuming, hot washing of bedding and an environmental insect growth regulator spray.',
      possible_surgical_options:
        'Surgery is not part of management; this is a parasitic and allergic skin disease treated medically.',
      preventative_options: 'Year-round flea prevention for every pet in the household, given without gaps.',
      regular_veterinary_monitoring:
        'Recheck at two to four weeks to confirm resolution and review compliance; check for tapeworm (Dipylidium) infection.',
      owner_education:
        'Most of the flea population lives in the home as eggs and pupae, so environmental treatment and months of continuous prevention are needed even when no fleas are seen.',
    },
  },
  {
    id: 'canine-superficial-pyoderma',
    name: 'Superficial pyoderma',
    aliases: [
      'pyoderma',
      'bacterial folliculitis',
      'superficial bacterial folliculitis',
      'SBF',
      'staph infection',
      'skin infection',
    ],
    species: ['dog'],
    signs: [
      ['papules', 2],
      ['pustules', 3],
      ['epidermal collarettes', 3],
      ['collarettes', 3],
      ['crusts', 2],
      ['moth-eaten alopecia', 2],
      ['pruritus', 1],
      ['itchy', 1],
      ['scaling', 1],
      ['hyperpigmentation', 1],
      ['cocci on cytology', 3],
    ],
    predispositions: [
      'allergic dog',
      'short-coated breed',
      'bulldog',
      'shar pei',
      'german shepherd',
      'hypothyroid',
      "cushing's",
    ],
    ddx: {
      name: 'Superficial pyoderma',
      cause_etiology:
        'Bacterial infection of the hair follicles and superficial epidermis, almost always Staphylococcus pseudintermedius, secondary to an underlying cause such as allergy, endocrine disease or ectoparasites.',
      commonly_confused_with: 'Demodicosis, dermatophytosis, pemphigus foliaceus and Malassezia dermatitis.',
      diagnosis_rule_outs:
        'Cytology of a pustule or collarette showing neutrophils with cocci; skin scrapes and trichograms for Demodex, dermatophyte culture or PCR; bacterial culture and susceptibility for recurrent cases or poor response.',
      prognosis:
        'Excellent for the episode; recurrence is common unless the underlying cause is controlled. Meticillin-resistant infections need topical or culture-guided therapy.',
      risk_factors_predispositions:
        'Atopic dermatitis and other allergies, hypothyroidism, hyperadrenocorticism, ectoparasites, skin folds and glucocorticoid therapy.',
      symptoms_clinical_signs:
        'Papules, pustules, epidermal collarettes, crusts and patchy moth-eaten alopecia on the trunk, ventrum and inner thighs, with variable pruritus.',
    },
    treatment: {
      diagnosis_name: 'Superficial pyoderma',
      treatment_plan_name: 'Topical-first antimicrobial therapy',
      treatment_goal:
        'Resolve the infection, preferably with topical therapy, and identify and manage the underlying cause.',
      medications:
        'Topical chlorhexidine shampoos, sprays or mousses as first-line; systemic antibiotics such as cefalexin (15-30 mg/kg PO twice daily) or clindamycin (5.5-11 mg/kg PO twice daily) for widespread disease, chosen by culture when meticillin resistance is possible, continued for about a week beyond clinical cure; check each dose against the current formulary.',
      dietary_management:
        'No specific diet; an elimination diet trial if food allergy is suspected as the underlying cause.',
      lifestyle_modifications: 'Keep the coat clean and dry, and wash bedding regularly.',
      symptom_management: 'Antipruritic treatment of the underlying allergy; clipping and cleaning affected skin.',
      'non-surgical_options':
        'Topical antiseptic therapy two to three times weekly, alone in localised disease or alongside systemic antibiotics.',
      possible_surgical_options:
        'Surgery is not part of management; skin fold resection is considered only for recurrent fold pyoderma.',
      preventative_options:
        'Control of the underlying allergy or endocrine disease, regular antiseptic bathing in recurrent cases and year-round parasite control.',
      regular_veterinary_monitoring:
        'Recheck with cytology before stopping systemic antibiotics, typically at two to three weeks; investigate the cause of recurrent episodes.',
      owner_education:
        'Pyoderma is secondary to another problem; finish the full course, and apply topical therapy with adequate contact time.',
    },
  },
  {
    id: 'otitis-externa',
    name: 'Otitis externa',
    aliases: ['ear infection', 'OE', 'otitis', 'yeasty ears', 'malassezia otitis'],
    species: ['dog', 'cat'],
    signs: [
      ['head shaking', 3],
      ['ear scratching', 3],
      ['aural pruritus', 3],
      ['ear discharge', 3],
      ['malodorous ear', 3],
      ['smelly ears', 3],
      ['erythematous ear canal', 3],
      ['ear pain', 2],
      ['head tilt', 1],
      ['aural haematoma', 2],
      ['dark brown wax', 2],
      ['ear mites', 2],
    ],
    predispositions: [
      'cocker spaniel',
      'pendulous ears',
      'atopic',
      'labrador',
      'french bulldog',
      'shar pei',
      'swimmer',
      'kitten',
    ],
    ddx: {
      name: 'Otitis externa',
      cause_etiology:
        'Inflammation of the external ear canal with primary causes (atopy, food allergy, ear mites, foreign bodies such as grass awns, endocrine disease) and secondary Malassezia or bacterial infection, worsened by predisposing ear conformation and moisture.',
      commonly_confused_with:
        'Otitis media, aural polyps (cats), ceruminous gland tumours, ear-margin dermatoses and pinnal disease.',
      diagnosis_rule_outs:
        'Otoscopy to assess the canal and tympanic membrane and look for foreign bodies or mites; ear cytology for yeasts, cocci and rods; culture for rods or chronic cases; imaging when otitis media is suspected.',
      prognosis:
        'Good for acute cases; recurrent otitis is common unless the primary cause is controlled, and chronic changes can lead to end-stage ear disease.',
      risk_factors_predispositions:
        'Atopic dogs, pendulous or hairy ear canals (Cocker Spaniels, Poodles), narrow canals (Shar Pei, Bulldogs), swimming and frequent bathing; ear mites in kittens and puppies.',
      symptoms_clinical_signs:
        'Head shaking, ear scratching, discharge (brown and waxy with yeast, purulent with rods), malodour, erythema and swelling of the canal, pain, and sometimes aural haematoma.',
    },
    treatment: {
      diagnosis_name: 'Otitis externa',
      treatment_plan_name: 'Ear cleaning, topical therapy and primary cause control',
      treatment_goal:
        'Clean the canal, resolve infection and inflammation, and control the primary cause to prevent recurrence.',
      medications:
        "Licensed topical ear preparations combining a glucocorticoid, an antifungal and an antibiotic, chosen from cytology; long-acting in-clinic gels improve compliance; systemic glucocorticoids for severe canal stenosis; acaricides for mites; dose per current formulary and the patient's weight.",
      dietary_management: 'An elimination diet trial when food allergy is the suspected primary cause.',
      lifestyle_modifications: 'Dry ears after swimming; avoid cotton buds deep in the canal.',
      symptom_management:
        'Analgesia and anti-inflammatories for painful ears; cleaning under sedation when the canal is painful or full of debris.',
      'non-surgical_options':
        'Ear flushing under anaesthesia with video otoscopy for severe or chronic cases and removal of foreign bodies.',
      possible_surgical_options:
        'Lateral wall resection for selected cases; total ear canal ablation with lateral bulla osteotomy for end-stage calcified canals.',
      preventative_options:
        'Routine ear cleaning with a ceruminolytic cleaner in predisposed dogs and control of atopic dermatitis.',
      regular_veterinary_monitoring: 'Recheck with otoscopy and cytology at two weeks, and before stopping treatment.',
      owner_education:
        'Demonstrate ear cleaning and medication technique; stopping early leads to resistant, chronic infections.',
    },
  },
  {
    id: 'conjunctivitis',
    name: 'Conjunctivitis',
    aliases: ['pink eye', 'red eye', 'eye infection', 'conjunctival inflammation'],
    species: ['dog', 'cat'],
    signs: [
      ['red eye', 2],
      ['conjunctival hyperaemia', 3],
      ['chemosis', 3],
      ['ocular discharge', 2],
      ['eye discharge', 2],
      ['mucopurulent discharge', 2],
      ['epiphora', 2],
      ['squinting', 1],
      ['blepharospasm', 1],
      ['rubbing eyes', 1],
      ['sneezing', 1],
    ],
    predispositions: ['kitten', 'young cat', 'brachycephalic', 'shelter cat', 'multi-cat household', 'atopic dog'],
    ddx: {
      name: 'Conjunctivitis',
      cause_etiology:
        'Inflammation of the conjunctiva; in cats mostly infectious (feline herpesvirus-1, Chlamydia felis, Mycoplasma), in dogs usually secondary to allergy, keratoconjunctivitis sicca, eyelid abnormalities or irritants.',
      commonly_confused_with:
        'Keratoconjunctivitis sicca, corneal ulceration, anterior uveitis, glaucoma and episcleritis, which also present as a red eye.',
      diagnosis_rule_outs:
        'Ophthalmic examination including Schirmer tear test, fluorescein staining and intraocular pressure to exclude the other red-eye causes; PCR on conjunctival swabs in cats; cytology in persistent cases.',
      prognosis:
        'Good; recurrences are common in cats with herpesvirus and in dogs with allergic or tear-film disease.',
      risk_factors_predispositions:
        'Kittens and cats from shelters or multi-cat homes; brachycephalic breeds with exposure problems; atopic dogs; entropion, distichiasis or dry eye.',
      symptoms_clinical_signs:
        'Conjunctival hyperaemia, chemosis, serous to mucopurulent ocular discharge, blepharospasm and rubbing; sneezing and nasal discharge with feline upper respiratory infection.',
    },
    treatment: {
      diagnosis_name: 'Conjunctivitis',
      treatment_plan_name: 'Cause-directed ocular therapy',
      treatment_goal:
        'Relieve ocular discomfort, resolve inflammation and infection, and correct the underlying cause.',
      medications:
        "Topical broad-spectrum antibiotic drops or ointment for bacterial infection; oral doxycycline for Chlamydia or Mycoplasma in cats; topical antivirals such as cidofovir or oral famciclovir for herpesvirus; topical anti-inflammatories only once corneal ulceration is excluded; dose per current formulary and the patient's weight.",
      dietary_management: 'No specific diet; keep affected cats eating, as congestion reduces appetite.',
      lifestyle_modifications: 'Reduce stress in herpes-positive cats and isolate infectious cats from others.',
      symptom_management:
        'Gentle cleaning of discharge with saline, and an Elizabethan collar if the animal rubs its eyes.',
      'non-surgical_options':
        'Tear replacement and immunomodulators (ciclosporin) when dry eye contributes; allergen control in allergic conjunctivitis.',
      possible_surgical_options:
        'Surgery is not part of treating conjunctivitis itself; eyelid surgery for entropion or removal of distichia corrects predisposing causes.',
      preventative_options:
        'Vaccination against feline herpesvirus and calicivirus (and Chlamydia where endemic), hygiene in multi-cat settings and treatment of eyelid abnormalities.',
      regular_veterinary_monitoring:
        'Recheck in five to seven days, sooner if the eye becomes painful, cloudy or the animal squints more.',
      owner_education:
        'Never use leftover human or pet eye medications containing steroids without an examination, since they worsen corneal ulcers.',
    },
  },
];
