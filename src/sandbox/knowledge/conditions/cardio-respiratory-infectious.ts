// The knowledge base's cardiac, respiratory and infectious conditions. Long because it is data: one record per
// condition (its signs, predispositions, differential-diagnosis text and treatment plan), read by
// the agents and never by a person in one sitting; splitting them over files would only scatter them.
import type { Condition } from '../types.ts';

export const CARDIO_RESPIRATORY_INFECTIOUS: Condition[] = [
  {
    id: 'myxomatous-mitral-valve-disease',
    name: 'Myxomatous mitral valve disease',
    aliases: [
      'MMVD',
      'DMVD',
      'degenerative mitral valve disease',
      'endocardiosis',
      'mitral regurgitation',
      'MR',
      'CHF',
    ],
    species: ['dog'],
    signs: [
      ['heart murmur', 2],
      ['left apical systolic murmur', 3],
      ['mitral murmur', 3],
      ['cough', 1],
      ['coughing', 1],
      ['exercise intolerance', 1],
      ['tachypnoea', 2],
      ['increased resting respiratory rate', 3],
      ['dyspnoea', 2],
      ['orthopnoea', 3],
      ['syncope', 2],
      ['cardiomegaly', 3],
      ['pulmonary oedema', 3],
    ],
    predispositions: [
      'senior',
      'older',
      'small breed',
      'cavalier king charles spaniel',
      'chihuahua',
      'dachshund',
      'miniature poodle',
      'male',
    ],
    ddx: {
      name: 'Myxomatous mitral valve disease',
      cause_etiology:
        'Progressive, heritable myxomatous degeneration of the mitral (and often tricuspid) valve leaflets causing regurgitation, left atrial and ventricular enlargement and, eventually, left-sided congestive heart failure.',
      commonly_confused_with:
        'Chronic bronchitis, tracheal collapse and other airway diseases as a cause of cough in small older dogs; dilated cardiomyopathy in larger breeds.',
      diagnosis_rule_outs:
        'A left apical systolic murmur in a small breed dog; echocardiography confirms valve lesions and measures chamber size; thoracic radiographs (vertebral heart score, left atrial size) stage disease and identify pulmonary oedema; NT-proBNP helps in screening.',
      prognosis:
        'Many dogs in ACVIM stage B1 never develop heart failure; stage B2 treatment delays onset of failure; after congestive heart failure develops, survival is typically months to a couple of years.',
      risk_factors_predispositions:
        'Older small and medium breed dogs, especially Cavalier King Charles Spaniels (often early onset), Chihuahuas, Dachshunds and Miniature Poodles; males progress faster.',
      symptoms_clinical_signs:
        'A left apical systolic murmur, then with progression exercise intolerance, cough, increased resting respiratory rate and effort, orthopnoea, syncope and, in right-sided involvement, ascites.',
    },
    treatment: {
      diagnosis_name: 'Myxomatous mitral valve disease',
      treatment_plan_name: 'ACVIM stage-based cardiac management',
      treatment_goal:
        'Delay the onset of congestive heart failure in stage B2, control congestion in stages C and D, and keep a good quality of life.',
      medications:
        "Pimobendan (an inodilator) from stage B2; in congestive heart failure, a loop diuretic such as furosemide or torasemide, spironolactone and an ACE inhibitor such as benazepril or enalapril; dose per current formulary and the patient's weight.",
      dietary_management:
        'A palatable diet with moderate sodium restriction, avoiding salty treats; maintain lean body mass and prevent cardiac cachexia.',
      lifestyle_modifications:
        'Regular gentle exercise the dog tolerates; avoid strenuous exercise and heat in advanced disease.',
      symptom_management:
        'Oxygen, parenteral diuretics and sedation for acute pulmonary oedema; home monitoring of sleeping respiratory rate to adjust diuretics early.',
      'non-surgical_options':
        'Medical management according to ACVIM stage is standard; transcatheter edge-to-edge valve repair is emerging at a few centres.',
      possible_surgical_options:
        'Mitral valve repair under cardiopulmonary bypass is offered by a few specialist centres and can be curative, but cost and availability limit it.',
      preventative_options:
        'No prevention; breeding schemes in Cavaliers select against early-onset murmurs; screening murmurs allows timely stage B2 treatment.',
      regular_veterinary_monitoring:
        'Echocardiography and/or radiographs every six to twelve months in stage B; after heart failure, renal values and electrolytes one to two weeks after diuretic changes, then every few months.',
      owner_education:
        'Count the sleeping respiratory rate at home; a sustained rise above about 30 breaths per minute signals heart failure and needs a call to the clinic.',
    },
  },
  {
    id: 'feline-hypertrophic-cardiomyopathy',
    name: 'Hypertrophic cardiomyopathy',
    aliases: ['HCM', 'feline cardiomyopathy', 'FATE', 'saddle thrombus', 'arterial thromboembolism', 'ATE'],
    species: ['cat'],
    signs: [
      ['heart murmur', 2],
      ['gallop rhythm', 3],
      ['arrhythmia', 2],
      ['tachypnoea', 2],
      ['dyspnoea', 2],
      ['open-mouth breathing', 3],
      ['increased resting respiratory rate', 3],
      ['hind limb paralysis', 3],
      ['cold hind limbs', 3],
      ['absent femoral pulses', 3],
      ['pleural effusion', 2],
      ['lethargy', 1],
      ['hiding', 1],
    ],
    predispositions: ['male cat', 'middle-aged', 'maine coon', 'ragdoll', 'british shorthair', 'sphynx', 'persian'],
    ddx: {
      name: 'Hypertrophic cardiomyopathy',
      cause_etiology:
        'Primary concentric hypertrophy of the left ventricular myocardium, inherited in some breeds (sarcomeric gene mutations in Maine Coons and Ragdolls), causing diastolic dysfunction, left atrial enlargement, congestive heart failure and arterial thromboembolism.',
      commonly_confused_with:
        'Secondary hypertrophy from hyperthyroidism or systemic hypertension, feline asthma, pleural effusion of other causes, and transient myocardial thickening.',
      diagnosis_rule_outs:
        'Echocardiography showing increased left ventricular wall thickness, with T4 and blood pressure to exclude secondary causes; NT-proBNP and thoracic radiographs or point-of-care ultrasound for heart failure.',
      prognosis:
        'Highly variable: many cats with mild disease live normal lives, but after congestive heart failure or thromboembolism survival is often months to a year or two.',
      risk_factors_predispositions:
        'Male cats, middle age, and breeds such as Maine Coon, Ragdoll, British Shorthair, Sphynx and Persian; many affected cats are domestic shorthairs.',
      symptoms_clinical_signs:
        'Often none until decompensation; a murmur or gallop sound; tachypnoea, dyspnoea or open-mouth breathing with heart failure; sudden painful hind limb paresis with cold limbs and absent femoral pulses with thromboembolism; sudden death.',
    },
    treatment: {
      diagnosis_name: 'Hypertrophic cardiomyopathy',
      treatment_plan_name: 'Heart failure control and thromboprophylaxis',
      treatment_goal:
        'Control congestion, prevent arterial thromboembolism in at-risk cats and keep a good quality of life.',
      medications:
        "Clopidogrel (an antiplatelet drug) for cats with left atrial enlargement; furosemide for congestive heart failure, with an ACE inhibitor and sometimes pimobendan; atenolol in selected cats with outflow obstruction; dose per current formulary and the patient's weight.",
      dietary_management:
        'A palatable, complete diet with no high-sodium treats; maintain appetite and body condition.',
      lifestyle_modifications:
        'Minimise stress and handling in cats with advanced disease; keep the cat indoors and calm.',
      symptom_management:
        'Oxygen, diuretics and thoracocentesis for pleural effusion in acute heart failure; analgesia and thromboprophylaxis for arterial thromboembolism.',
      'non-surgical_options': 'Lifelong medical management; thoracocentesis as needed for recurrent pleural effusion.',
      possible_surgical_options:
        'Surgery is not part of management; thrombus removal is rarely attempted and has not been shown to improve outcome.',
      preventative_options:
        'Genetic testing and echocardiographic screening of breeding cats in predisposed breeds; early detection in cats with murmurs or gallops.',
      regular_veterinary_monitoring:
        'Echocardiography every six to twelve months, renal values and electrolytes after diuretic changes, and home monitoring of the sleeping respiratory rate.',
      owner_education:
        'Count the sleeping respiratory rate; rapid or open-mouth breathing, or sudden hind limb weakness with pain, are emergencies.',
    },
  },
  {
    id: 'canine-infectious-respiratory-disease-complex',
    name: 'Canine infectious respiratory disease complex',
    aliases: ['CIRDC', 'kennel cough', 'infectious tracheobronchitis', 'ITB', 'canine cough'],
    species: ['dog'],
    signs: [
      ['honking cough', 3],
      ['harsh cough', 3],
      ['goose honk', 2],
      ['cough', 2],
      ['coughing', 2],
      ['gagging', 2],
      ['retching after coughing', 2],
      ['recent boarding', 3],
      ['kennels', 2],
      ['positive tracheal pinch', 3],
      ['nasal discharge', 1],
      ['sneezing', 1],
      ['fever', 1],
    ],
    predispositions: ['puppy', 'young dog', 'recently boarded', 'shelter dog', 'daycare', 'unvaccinated'],
    ddx: {
      name: 'Canine infectious respiratory disease complex',
      cause_etiology:
        'A contagious, multi-agent respiratory infection spread where dogs gather, involving Bordetella bronchiseptica, canine parainfluenza virus, canine adenovirus-2, canine respiratory coronavirus, Mycoplasma cynos and canine influenza, among others.',
      commonly_confused_with:
        'Tracheal collapse, chronic bronchitis, bacterial pneumonia, heartworm disease, cardiac disease and inhaled foreign bodies.',
      diagnosis_rule_outs:
        'Usually a clinical diagnosis from acute cough and recent contact with other dogs; thoracic radiographs and bloodwork when the dog is systemically ill; respiratory PCR panels in outbreaks.',
      prognosis:
        'Excellent for the uncomplicated form, which resolves in one to three weeks; guarded if pneumonia develops in puppies, elderly or immunocompromised dogs.',
      risk_factors_predispositions:
        'Boarding kennels, shelters, daycare, shows and training classes; puppies, unvaccinated dogs and brachycephalic breeds.',
      symptoms_clinical_signs:
        'Sudden harsh honking cough, often with gagging or retching of foam at the end, easily induced by tracheal palpation; otherwise bright. Fever, lethargy, anorexia and tachypnoea suggest pneumonia.',
    },
    treatment: {
      diagnosis_name: 'Canine infectious respiratory disease complex',
      treatment_plan_name: 'Supportive care for infectious tracheobronchitis',
      treatment_goal:
        'Relieve coughing, let the infection run its course, detect pneumonia early and limit spread to other dogs.',
      medications:
        "Antitussives such as butorphanol or hydrocodone for a non-productive cough in uncomplicated cases; doxycycline when bacterial infection or pneumonia is suspected; NSAIDs for fever or tracheal inflammation; dose per current formulary and the patient's weight.",
      dietary_management:
        'Soft, palatable food and fresh water; warm food can encourage dogs whose appetite is reduced.',
      lifestyle_modifications: 'Rest and a harness instead of a collar; avoid smoke and dust.',
      symptom_management: 'Steam or humidified air, rest, and antitussives for disturbing cough at night.',
      'non-surgical_options':
        'Supportive care at home; hospitalisation with oxygen, fluids and nebulisation for pneumonia.',
      possible_surgical_options:
        'Surgery is not part of management; this is an infectious disease treated supportively.',
      preventative_options:
        'Vaccination against Bordetella (intranasal or oral), parainfluenza and adenovirus before boarding; good ventilation and hygiene in kennels.',
      regular_veterinary_monitoring:
        'Recheck if the cough lasts more than two to three weeks or if the dog develops fever, lethargy or breathing difficulty.',
      owner_education:
        'Keep the dog away from other dogs for the duration of signs and a week or two after; return if the dog stops eating or breathes fast.',
    },
  },
  {
    id: 'feline-upper-respiratory-infection',
    name: 'Feline upper respiratory infection',
    aliases: [
      'URI',
      'URTI',
      'cat flu',
      'FURTD',
      'feline upper respiratory tract disease',
      'FHV-1',
      'calicivirus',
      'FCV',
    ],
    species: ['cat'],
    signs: [
      ['sneezing', 2],
      ['nasal discharge', 2],
      ['ocular discharge', 2],
      ['conjunctivitis', 2],
      ['snuffles', 3],
      ['congested', 2],
      ['oral ulcers', 3],
      ['tongue ulcers', 3],
      ['hypersalivation', 1],
      ['fever', 1],
      ['anorexia', 1],
      ['inappetence', 1],
      ['corneal ulcer', 2],
    ],
    predispositions: ['kitten', 'shelter cat', 'multi-cat household', 'unvaccinated', 'cattery', 'brachycephalic cat'],
    ddx: {
      name: 'Feline upper respiratory infection',
      cause_etiology:
        'Infection of the upper airways and conjunctiva mostly by feline herpesvirus-1 and feline calicivirus, with Chlamydia felis, Mycoplasma and Bordetella bronchiseptica as primary or secondary agents; herpesvirus persists latently and recrudesces with stress.',
      commonly_confused_with:
        'Chronic rhinosinusitis, nasal foreign bodies, nasopharyngeal polyps, nasal neoplasia, cryptococcosis and dental disease.',
      diagnosis_rule_outs:
        'Clinical diagnosis in most cats; PCR on conjunctival and oropharyngeal swabs in outbreaks or chronic cases; imaging and rhinoscopy when signs are chronic or unilateral.',
      prognosis:
        'Good; most cats recover within one to three weeks, but some become chronic carriers with recurrent signs or chronic rhinitis.',
      risk_factors_predispositions:
        'Kittens, shelters, breeding catteries and multi-cat households, unvaccinated cats, stress, and brachycephalic breeds.',
      symptoms_clinical_signs:
        'Sneezing, serous to mucopurulent nasal and ocular discharge, conjunctivitis, fever and reduced appetite; herpesvirus may cause corneal ulcers, calicivirus oral ulcers and limping.',
    },
    treatment: {
      diagnosis_name: 'Feline upper respiratory infection',
      treatment_plan_name: 'Supportive care and nursing for cat flu',
      treatment_goal:
        'Keep the cat eating and hydrated, relieve congestion, treat secondary infection and limit spread to other cats.',
      medications:
        "Doxycycline for suspected bacterial, Chlamydia or Mycoplasma involvement; famciclovir for significant herpesvirus disease; topical ocular antivirals or antibiotics as indicated; analgesia for oral ulcers; dose per current formulary and the patient's weight.",
      dietary_management:
        'Strong-smelling, warmed, palatable wet food to overcome loss of smell; appetite stimulants such as mirtazapine, and feeding tubes in prolonged anorexia.',
      lifestyle_modifications:
        'Isolate affected cats, reduce stress and crowding, and clean shared bowls and litter trays.',
      symptom_management:
        'Steam or saline nebulisation for congestion, gentle cleaning of eyes and nose, and fluid therapy for dehydration.',
      'non-surgical_options':
        'Home nursing for most cats; hospitalisation with fluids and nutritional support for kittens or cats that stop eating.',
      possible_surgical_options:
        'Surgery is not part of management; this is a viral infection treated with supportive care.',
      preventative_options:
        'Core vaccination against herpesvirus and calicivirus (reduces disease severity, not infection), quarantine of new arrivals and hygiene in multi-cat settings.',
      regular_veterinary_monitoring:
        'Recheck in a few days if the cat stops eating, and to monitor corneal ulcers; further work-up for signs lasting more than a few weeks.',
      owner_education:
        'Recovered cats can carry herpesvirus for life and may relapse with stress; a cat that has not eaten for more than a day or two needs veterinary care.',
    },
  },
  {
    id: 'canine-parvovirus',
    name: 'Canine parvovirus enteritis',
    aliases: ['parvo', 'CPV', 'CPV-2', 'parvoviral enteritis', 'canine parvovirus'],
    species: ['dog'],
    signs: [
      ['haemorrhagic diarrhoea', 3],
      ['hemorrhagic diarrhea', 3],
      ['bloody diarrhoea', 3],
      ['foul-smelling diarrhoea', 2],
      ['vomiting', 1],
      ['v+', 1],
      ['d+', 1],
      ['lethargy', 1],
      ['anorexia', 1],
      ['fever', 1],
      ['dehydration', 2],
      ['leucopenia', 3],
      ['unvaccinated puppy', 3],
      ['positive parvo snap', 3],
    ],
    predispositions: [
      'puppy',
      'six weeks to six months',
      'unvaccinated',
      'incompletely vaccinated',
      'rottweiler',
      'dobermann',
      'pit bull',
      'shelter dog',
    ],
    // Chiefly of puppies: a vaccinated adult with the same signs has something else first.
    chieflyUnderYears: 2,
    ddx: {
      name: 'Canine parvovirus enteritis',
      cause_etiology:
        'Infection with canine parvovirus type 2, a hardy virus spread by the faecal-oral route, which destroys rapidly dividing intestinal crypt cells and bone marrow precursors, causing severe enteritis, neutropenia and risk of sepsis.',
      commonly_confused_with:
        'Acute haemorrhagic diarrhoea syndrome, gastrointestinal foreign body or intussusception, severe parasitism, salmonellosis and hypoadrenocorticism.',
      diagnosis_rule_outs:
        'Faecal antigen ELISA (SNAP) test in a puppy with compatible signs; false negatives occur early and false positives for a short time after vaccination, so faecal PCR helps in doubtful cases; leucopenia supports the diagnosis.',
      prognosis:
        'Survival is high (around 80-90%) with intensive hospital treatment and lower with outpatient care; untreated the mortality is high.',
      risk_factors_predispositions:
        'Puppies aged six weeks to six months, unvaccinated or incompletely vaccinated dogs, shelters and breeders, and breeds such as Rottweilers, Dobermanns and pit bull types.',
      symptoms_clinical_signs:
        'Lethargy, anorexia and fever followed by vomiting and profuse, often haemorrhagic, foul-smelling diarrhoea, leading to dehydration, hypoglycaemia and septic shock.',
    },
    treatment: {
      diagnosis_name: 'Canine parvovirus enteritis',
      treatment_plan_name: 'Intensive supportive care for parvovirus',
      treatment_goal:
        'Restore and maintain hydration and electrolyte balance, control vomiting, support nutrition and prevent or treat sepsis until the gut and marrow recover.',
      medications:
        "Intravenous crystalloids with potassium and dextrose supplementation, antiemetics such as maropitant or ondansetron, broad-spectrum intravenous antibiotics for neutropenic or septic puppies, and analgesia; a monoclonal antibody against parvovirus is licensed in some countries; dose per current formulary and the patient's weight.",
      dietary_management:
        'Early enteral nutrition, by naso-oesophageal tube if needed, with a highly digestible diet as soon as vomiting is controlled.',
      lifestyle_modifications:
        'Strict isolation during treatment and recovery; keep the puppy away from unvaccinated dogs and public areas until cleared.',
      symptom_management:
        'Fluid therapy, antiemetics, monitoring of glucose, electrolytes and albumin, and colloids or plasma for severe hypoproteinaemia.',
      'non-surgical_options':
        'Hospitalisation in an isolation ward is standard; an outpatient protocol with subcutaneous fluids is an option when hospitalisation is not possible.',
      possible_surgical_options:
        'Surgery is not part of management; it is needed only if a complication such as intussusception develops.',
      preventative_options:
        'A complete puppy vaccination course ending at sixteen weeks or later, then boosters; disinfect the environment with a parvocidal product such as dilute bleach or potassium peroxymonosulphate.',
      regular_veterinary_monitoring:
        'Frequent in-hospital monitoring of hydration, glucose, electrolytes and white cell count; recheck after discharge to confirm recovery and complete vaccination.',
      owner_education:
        'The virus survives in the environment for months; keep new puppies away until they are fully vaccinated, and vaccinate other dogs in the household.',
    },
  },
  {
    id: 'canine-heartworm-disease',
    name: 'Heartworm disease',
    aliases: ['heartworm', 'HW', 'HWD', 'dirofilariasis', 'Dirofilaria immitis', 'caval syndrome'],
    species: ['dog'],
    signs: [
      ['cough', 1],
      ['coughing', 1],
      ['exercise intolerance', 2],
      ['tires easily', 1],
      ['weight loss', 1],
      ['dyspnoea', 2],
      ['syncope', 2],
      ['ascites', 2],
      ['right-sided heart failure', 2],
      ['haemoptysis', 2],
      ['positive heartworm antigen', 3],
      ['microfilariae', 3],
      ['no heartworm prevention', 3],
      ['haemoglobinuria', 2],
    ],
    predispositions: [
      'endemic area',
      'outdoor dog',
      'no preventive',
      'mosquito exposure',
      'imported dog',
      'large breed',
    ],
    ddx: {
      name: 'Heartworm disease',
      cause_etiology:
        'Infection with Dirofilaria immitis, transmitted by mosquitoes; adult worms in the pulmonary arteries cause proliferative endarteritis, pulmonary hypertension and eventually right-sided heart failure; a heavy burden can obstruct the right heart (caval syndrome).',
      commonly_confused_with:
        'Chronic bronchitis, canine infectious respiratory disease, angiostrongylosis, myxomatous mitral valve disease and other causes of pulmonary hypertension.',
      diagnosis_rule_outs:
        'Heartworm antigen test (with heat treatment in doubtful cases) and a microfilaria test; thoracic radiographs and echocardiography stage severity and show enlarged, tortuous pulmonary arteries or worms in the right heart.',
      prognosis:
        'Good for dogs with mild to moderate disease treated properly; guarded with severe pulmonary disease, heart failure or caval syndrome.',
      risk_factors_predispositions:
        'Living in or travelling to endemic areas, no or irregular preventive treatment, outdoor lifestyle with mosquito exposure, and dogs imported from endemic regions.',
      symptoms_clinical_signs:
        'Often none early; then a chronic cough, exercise intolerance, weight loss, dyspnoea, syncope and ascites from right-sided heart failure; caval syndrome causes acute collapse with haemoglobinuria.',
    },
    treatment: {
      diagnosis_name: 'Heartworm disease',
      treatment_plan_name: 'Staged adulticide protocol with exercise restriction',
      treatment_goal:
        'Kill adult worms and larvae with the fewest complications from pulmonary thromboembolism, and prevent reinfection.',
      medications:
        "Following the American Heartworm Society protocol: a macrocyclic lactone preventive, doxycycline against Wolbachia, then melarsomine (the adulticide) in a split-dose schedule, with prednisolone to reduce inflammation; dose per current formulary and the patient's weight.",
      dietary_management:
        'A balanced diet with weight control; sodium restriction if right-sided heart failure is present.',
      lifestyle_modifications:
        'Strict exercise restriction from diagnosis until several weeks after the last adulticide injection, because exertion increases the risk of thromboembolism.',
      symptom_management:
        'Cage rest, oxygen, anti-inflammatories and anticoagulants for thromboembolic complications; diuretics and sildenafil for heart failure and pulmonary hypertension.',
      'non-surgical_options':
        'The melarsomine protocol is the recommended treatment; the so-called slow-kill approach with preventives and doxycycline alone is discouraged because it takes longer and lets pathology progress.',
      possible_surgical_options:
        'Surgical or transvenous removal of worms from the right atrium and vena cava is needed for caval syndrome.',
      preventative_options:
        'Year-round macrocyclic lactone preventives (ivermectin, milbemycin oxime, moxidectin or selamectin), annual antigen testing and mosquito control.',
      regular_veterinary_monitoring:
        'Antigen test and microfilaria test about nine months after the last adulticide injection; then annual testing while preventives continue.',
      owner_education:
        'Exercise restriction is vital during treatment; watch for cough, breathing difficulty or collapse after injections, and give preventives on time every month.',
    },
  },
];
