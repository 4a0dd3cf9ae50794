import type { Condition } from '../types.ts';

export const OTHER: Condition[] = [
  {
    id: 'periodontal-disease',
    name: 'Periodontal disease',
    aliases: ['dental disease', 'periodontitis', 'gingivitis', 'PD', 'bad teeth', 'tartar'],
    species: ['dog', 'cat'],
    signs: [
      ['halitosis', 3],
      ['bad breath', 3],
      ['dental calculus', 3],
      ['tartar', 3],
      ['gingivitis', 3],
      ['gingival recession', 3],
      ['loose teeth', 3],
      ['tooth mobility', 3],
      ['dropping food', 2],
      ['chewing on one side', 2],
      ['pawing at mouth', 2],
      ['hypersalivation', 1],
      ['facial swelling', 2],
    ],
    predispositions: [
      'small breed',
      'toy breed',
      'brachycephalic',
      'senior',
      'older',
      'yorkshire terrier',
      'dachshund',
      'greyhound',
    ],
    ddx: {
      name: 'Periodontal disease',
      cause_etiology:
        "Inflammation of the tissues supporting the teeth caused by bacterial plaque and the host's response to it, progressing from reversible gingivitis to periodontitis with loss of attachment and alveolar bone.",
      commonly_confused_with:
        'Feline chronic gingivostomatitis, tooth resorption in cats, oral neoplasia, fractured teeth with endodontic disease and uraemic stomatitis.',
      diagnosis_rule_outs:
        'Conscious oral examination for staging suspicion, then examination under general anaesthesia with periodontal probing and full-mouth dental radiographs, which are essential to assess bone loss and find hidden pathology.',
      prognosis:
        'Good with professional treatment and consistent home care; teeth with advanced attachment loss usually need extraction, after which animals eat comfortably.',
      risk_factors_predispositions:
        'Small and toy breeds, brachycephalic breeds with crowded teeth, Greyhounds, increasing age, lack of home dental care and soft diets.',
      symptoms_clinical_signs:
        'Halitosis, plaque and calculus, gingivitis and bleeding gums, gingival recession, tooth mobility, difficulty chewing, dropping food, facial swelling or nasal discharge from tooth root abscesses or oronasal fistulae; many animals show few outward signs.',
    },
    treatment: {
      diagnosis_name: 'Periodontal disease',
      treatment_plan_name: 'Professional periodontal therapy and home care',
      treatment_goal:
        'Remove plaque and calculus above and below the gumline, treat or extract diseased teeth, relieve oral pain and slow recurrence.',
      medications:
        "Perioperative analgesia including local nerve blocks, NSAIDs and opioids; antibiotics only for severe infection or systemic risk, not routinely; chlorhexidine oral rinses or gels after treatment; dose per current formulary and the patient's weight.",
      dietary_management:
        'Dental diets and chews with a recognised plaque-control seal (for example VOHC-accepted products) as an adjunct; soft food for a short time after extractions.',
      lifestyle_modifications: 'Daily tooth brushing with a pet toothpaste, introduced gradually and made rewarding.',
      symptom_management: 'Analgesia after extractions and soft food until the mouth heals.',
      'non-surgical_options':
        'Professional cleaning (scaling and polishing) under general anaesthesia with probing and dental radiographs; anaesthesia-free scaling is not recommended.',
      possible_surgical_options:
        'Extraction of teeth with advanced periodontitis, periodontal surgery such as flap procedures or guided tissue regeneration to save strategic teeth, and repair of oronasal fistulae.',
      preventative_options:
        'Daily brushing, plaque-control diets and chews, and regular professional cleaning; begin home care while the animal is young.',
      regular_veterinary_monitoring:
        'Oral examination at every health check (at least annually) and professional cleaning as often as the disease requires, often every six to twelve months in small breeds.',
      owner_education:
        'Dental disease is painful even when the pet still eats; home care prevents much of it, and a general anaesthetic is needed for proper treatment.',
    },
  },
  {
    id: 'pyometra',
    name: 'Pyometra',
    aliases: ['pyo', 'open pyometra', 'closed pyometra', 'uterine infection', 'CEH-pyometra'],
    species: ['dog', 'cat'],
    signs: [
      ['vaginal discharge', 3],
      ['purulent vaginal discharge', 3],
      ['recent season', 3],
      ['recent heat', 3],
      ['pu/pd', 2],
      ['polydipsia', 2],
      ['lethargy', 1],
      ['anorexia', 1],
      ['vomiting', 1],
      ['distended abdomen', 2],
      ['enlarged uterus', 3],
      ['fever', 1],
      ['neutrophilia', 2],
      ['intact female', 3],
    ],
    predispositions: [
      'intact female',
      'entire bitch',
      'middle-aged',
      'older',
      'nulliparous',
      'progestogen treatment',
      'rottweiler',
      'golden retriever',
      'rough collie',
    ],
    // A disease of the uterus: not in a male, nor in a spayed female.
    ruledOutBy: [['male'], ['spayed'], ['female', 'neutered']],
    ddx: {
      name: 'Pyometra',
      cause_etiology:
        'Bacterial infection of the uterus (usually Escherichia coli) during dioestrus, when progesterone causes endometrial hyperplasia, uterine secretions and reduced myometrial contractility; the cervix may be open or closed.',
      commonly_confused_with:
        'Mucometra or hydrometra, pregnancy, vaginitis, stump pyometra in spayed animals, and other causes of polyuria and polydipsia such as diabetes mellitus or kidney disease.',
      diagnosis_rule_outs:
        'An intact female in the weeks after oestrus with vaginal discharge or systemic illness; abdominal ultrasound showing a fluid-filled uterus confirms it; bloodwork for neutrophilia, azotaemia and sepsis.',
      prognosis:
        'Good with prompt ovariohysterectomy; guarded with closed-cervix pyometra, uterine rupture, septic peritonitis or organ dysfunction.',
      risk_factors_predispositions:
        'Intact middle-aged and older females, usually within two to three months of oestrus; nulliparous animals, progestogen or oestrogen treatment; breeds such as Rottweilers, Golden Retrievers and Rough Collies.',
      symptoms_clinical_signs:
        'Purulent, often haemorrhagic, vaginal discharge (open cervix), lethargy, anorexia, polyuria and polydipsia, vomiting, fever and a distended abdomen; closed-cervix cases have no discharge and are often sicker.',
    },
    treatment: {
      diagnosis_name: 'Pyometra',
      treatment_plan_name: 'Stabilisation and ovariohysterectomy',
      treatment_goal: 'Stabilise the patient, remove the infected uterus and treat sepsis and its complications.',
      medications:
        "Intravenous broad-spectrum antibiotics such as potentiated amoxicillin or a fluoroquinolone combination, adjusted to culture; opioid analgesia; for medical management of selected breeding animals, aglepristone (a progesterone receptor antagonist) with or without prostaglandins; dose per current formulary and the patient's weight.",
      dietary_management: 'Early return to a normal, highly digestible diet after surgery.',
      lifestyle_modifications: 'Restricted exercise and wound protection for ten to fourteen days after surgery.',
      symptom_management:
        'Intravenous fluid therapy, correction of electrolyte and glucose abnormalities, and management of sepsis before and during anaesthesia.',
      'non-surgical_options':
        'Medical treatment with aglepristone and antibiotics only for stable, young, valuable breeding animals with an open cervix; recurrence at later seasons is common.',
      possible_surgical_options:
        'Ovariohysterectomy after stabilisation is the treatment of choice and is urgent, particularly for closed-cervix pyometra; the uterus is handled gently to avoid rupture.',
      preventative_options: 'Neutering of females not intended for breeding; avoid progestogen-based oestrus control.',
      regular_veterinary_monitoring:
        'Post-operative monitoring of renal values, temperature and wound; suture removal at ten to fourteen days; after medical management, ultrasound of the uterus at each subsequent season.',
      owner_education:
        'Any unspayed female that is unwell or drinking more in the weeks after a season should be seen urgently; spaying prevents the condition.',
    },
  },
  {
    id: 'immune-mediated-haemolytic-anaemia',
    name: 'Immune-mediated haemolytic anaemia',
    aliases: [
      'IMHA',
      'AIHA',
      'autoimmune haemolytic anaemia',
      'immune-mediated hemolytic anemia',
      'haemolytic anaemia',
    ],
    species: ['dog'],
    signs: [
      ['pale mucous membranes', 2],
      ['pale gums', 2],
      ['icterus', 2],
      ['jaundice', 2],
      ['weakness', 1],
      ['lethargy', 1],
      ['collapse', 2],
      ['tachycardia', 1],
      ['tachypnoea', 1],
      ['haemoglobinuria', 3],
      ['red urine', 2],
      ['spherocytes', 3],
      ['autoagglutination', 3],
      ['regenerative anaemia', 3],
    ],
    predispositions: [
      'middle-aged',
      'female',
      'cocker spaniel',
      'springer spaniel',
      'poodle',
      'old english sheepdog',
      'collie',
      'recent vaccination',
    ],
    ddx: {
      name: 'Immune-mediated haemolytic anaemia',
      cause_etiology:
        'Antibody- and complement-mediated destruction of red blood cells, extravascularly in the spleen and liver or intravascularly; mostly primary (idiopathic) in dogs, or secondary to infections (Babesia, Anaplasma), drugs, neoplasia or other triggers.',
      commonly_confused_with:
        'Zinc or onion toxicity (Heinz body anaemia), Babesia or other blood-borne infection, blood loss anaemia, microangiopathic haemolysis and hepatic disease causing icterus.',
      diagnosis_rule_outs:
        'Anaemia with evidence of immune destruction (spherocytosis, persistent saline agglutination or positive Coombs test) and haemolysis (icterus, haemoglobinaemia); screen for secondary causes with infectious disease testing, thoracic and abdominal imaging and drug history.',
      prognosis:
        'Guarded; many dogs respond, but mortality in the first weeks is significant, mostly from thromboembolism; relapse occurs in a minority.',
      risk_factors_predispositions:
        'Middle-aged dogs, females over-represented; Cocker and Springer Spaniels, Poodles, Old English Sheepdogs and Collies.',
      symptoms_clinical_signs:
        'Acute or subacute lethargy, weakness, pale or jaundiced mucous membranes, tachycardia, tachypnoea, haemic murmur, fever, splenomegaly and sometimes red-brown urine.',
    },
    treatment: {
      diagnosis_name: 'Immune-mediated haemolytic anaemia',
      treatment_plan_name: 'Immunosuppression and thromboprophylaxis',
      treatment_goal:
        'Stop immune destruction of red cells, support oxygen delivery, prevent thromboembolism and then taper immunosuppression to the lowest effective treatment.',
      medications:
        "Glucocorticoids (prednisolone or dexamethasone) with a second immunosuppressant such as mycophenolate, azathioprine or ciclosporin when needed; antithrombotics such as clopidogrel and/or a factor Xa inhibitor or heparin; gastroprotection when indicated; dose per current formulary and the patient's weight.",
      dietary_management: 'A highly digestible, palatable diet; monitor appetite and weight on glucocorticoids.',
      lifestyle_modifications:
        'Rest during the acute phase; avoid unnecessary vaccinations and drugs that might trigger relapse.',
      symptom_management:
        'Packed red blood cell or whole blood transfusion for severe anaemia, oxygen supplementation and intravenous fluids.',
      'non-surgical_options':
        'Hospitalisation with transfusion support; human intravenous immunoglobulin or plasma exchange for refractory cases at referral centres.',
      possible_surgical_options: 'Not usually surgical; splenectomy is considered only for refractory cases.',
      preventative_options: 'No proven prevention; control of tick-borne infections avoids secondary haemolysis.',
      regular_veterinary_monitoring:
        'PCV or haematocrit frequently in the first weeks, then at each dose reduction; bloodwork for side effects of immunosuppressants throughout a taper over several months.',
      owner_education:
        'Treatment lasts months and relapse is possible; report pale gums, weakness, dark urine or sudden breathing difficulty at once, and warn about glucocorticoid side effects.',
    },
  },
  {
    id: 'lymphoma',
    name: 'Lymphoma',
    aliases: [
      'lymphosarcoma',
      'LSA',
      'multicentric lymphoma',
      'alimentary lymphoma',
      'GI lymphoma',
      'small cell lymphoma',
      'mediastinal lymphoma',
    ],
    species: ['dog', 'cat'],
    signs: [
      ['generalised lymphadenopathy', 3],
      ['enlarged lymph nodes', 3],
      ['swollen glands', 3],
      ['lymphadenopathy', 2],
      ['weight loss', 1],
      ['lethargy', 1],
      ['anorexia', 1],
      ['pu/pd', 1],
      ['hypercalcaemia', 2],
      ['chronic vomiting', 1],
      ['thickened intestinal loops', 2],
      ['mediastinal mass', 3],
      ['dyspnoea', 1],
      ['lymphoblasts on cytology', 3],
    ],
    predispositions: [
      'middle-aged',
      'senior',
      'boxer',
      'golden retriever',
      'bullmastiff',
      'rottweiler',
      'older cat',
      'felv-positive',
    ],
    ddx: {
      name: 'Lymphoma',
      cause_etiology:
        'A malignant proliferation of lymphocytes arising in lymph nodes or extranodal tissues; in dogs usually multicentric, in cats mostly alimentary (often small cell, low grade), with mediastinal forms in young FeLV-positive cats.',
      commonly_confused_with:
        'Reactive lymphadenopathy from infection or skin disease, inflammatory bowel disease (especially in cats), metastatic carcinoma and other round-cell tumours.',
      diagnosis_rule_outs:
        'Fine-needle aspirate cytology of enlarged nodes or masses; histopathology with immunohistochemistry, flow cytometry or PCR for clonality to confirm and immunophenotype; staging with bloodwork, calcium, imaging and bone marrow as needed.',
      prognosis:
        'Dogs with multicentric B-cell lymphoma on multi-agent chemotherapy often live around a year; T-cell disease is worse; untreated survival is weeks. Cats with small cell alimentary lymphoma often live two years or more on treatment.',
      risk_factors_predispositions:
        'Middle-aged to older animals; Boxers, Golden Retrievers, Bullmastiffs and Rottweilers; in cats, FeLV and FIV infection and chronic intestinal inflammation.',
      symptoms_clinical_signs:
        'Dogs: painless generalised lymphadenopathy, sometimes lethargy, anorexia, weight loss and polyuria and polydipsia from hypercalcaemia. Cats: weight loss, vomiting, diarrhoea and thickened bowel (alimentary), or dyspnoea from a mediastinal mass and pleural effusion.',
    },
    treatment: {
      diagnosis_name: 'Lymphoma',
      treatment_plan_name: 'Chemotherapy and supportive oncology care',
      treatment_goal:
        'Induce remission, prolong good-quality life with few side effects and manage paraneoplastic complications; cure is uncommon.',
      medications:
        "Multi-agent chemotherapy protocols (CHOP-based: cyclophosphamide, doxorubicin, vincristine and prednisolone) for high-grade lymphoma; chlorambucil with prednisolone for feline small cell lymphoma; prednisolone alone as palliation; antiemetics as needed; dose per current formulary and the patient's weight.",
      dietary_management:
        'A palatable, energy-dense diet to maintain body weight; feeding tubes and appetite stimulants in cats with reduced intake; cobalamin supplementation in alimentary lymphoma.',
      lifestyle_modifications:
        'Keep normal activity as tolerated; handle excreta with gloves for a few days after chemotherapy.',
      symptom_management:
        'Antiemetics, appetite stimulants, treatment of hypercalcaemia, and thoracocentesis for pleural effusion with mediastinal lymphoma.',
      'non-surgical_options':
        'Chemotherapy is the mainstay; radiotherapy for localised disease (nasal, mediastinal) or half-body protocols in selected cases.',
      possible_surgical_options:
        'Not usually surgical, since lymphoma is a systemic disease; surgery is used for biopsy, for solitary intestinal masses causing obstruction or perforation, and occasionally for solitary extranodal tumours.',
      preventative_options:
        'No proven prevention; FeLV vaccination and testing and avoiding FIV exposure reduce the risk in cats.',
      regular_veterinary_monitoring:
        'Physical examination and lymph node measurement at each treatment; complete blood counts before chemotherapy doses; staging rechecks to confirm remission and detect relapse.',
      owner_education:
        'Chemotherapy in pets is aimed at quality of life and most tolerate it well; report fever, lethargy, vomiting or diarrhoea after treatment, and handle oral chemotherapy drugs safely.',
    },
  },
];
