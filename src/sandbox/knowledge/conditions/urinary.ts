import type { Condition } from '../types.ts';

export const URINARY: Condition[] = [
  {
    id: 'feline-chronic-kidney-disease',
    name: 'Chronic kidney disease',
    aliases: ['CKD', 'chronic renal failure', 'CRF', 'renal insufficiency', 'kidney disease'],
    species: ['cat'],
    signs: [
      ['pu/pd', 2],
      ['polyuria', 2],
      ['polydipsia', 2],
      ['weight loss', 1],
      ['inappetence', 1],
      ['vomiting', 1],
      ['dehydration', 1],
      ['small kidneys', 3],
      ['azotaemia', 3],
      ['azotemia', 3],
      ['elevated sdma', 3],
      ['isosthenuria', 3],
      ['uraemic breath', 3],
      ['poor coat', 1],
    ],
    predispositions: ['senior', 'older cat', 'geriatric', 'persian', 'abyssinian', 'burmese'],
    ddx: {
      name: 'Chronic kidney disease',
      cause_etiology:
        'Progressive, irreversible loss of functional nephrons, most often from chronic tubulointerstitial nephritis of unknown cause; polycystic kidney disease, pyelonephritis, nephroliths, lymphoma and amyloidosis are specific causes.',
      commonly_confused_with:
        'Hyperthyroidism, diabetes mellitus, acute kidney injury, pre-renal azotaemia from dehydration and ureteral obstruction.',
      diagnosis_rule_outs:
        'Persistent azotaemia or elevated SDMA with inadequately concentrated urine; stage and substage by IRIS (creatinine, SDMA, urine protein:creatinine ratio and blood pressure). Urine culture, T4 and renal imaging look for causes and complications.',
      prognosis:
        'Varies with IRIS stage: cats in early stages often live for years, while stage 4 disease has a survival of months; proteinuria and hyperphosphataemia worsen the outlook.',
      risk_factors_predispositions:
        'Increasing age is the main factor; Persian and related breeds (polycystic kidney disease), Abyssinian, Burmese and Siamese cats; prior acute kidney injury, dental disease and hypertension.',
      symptoms_clinical_signs:
        'Polyuria and polydipsia, weight loss, decreased appetite, vomiting, dehydration, poor coat, small irregular kidneys on palpation and, in advanced disease, uraemic halitosis, oral ulcers and weakness.',
    },
    treatment: {
      diagnosis_name: 'Chronic kidney disease',
      treatment_plan_name: 'Renal support and IRIS-staged management',
      treatment_goal:
        'Slow progression, keep the cat hydrated and eating, and control hypertension, proteinuria, hyperphosphataemia and anaemia to maintain quality of life.',
      medications:
        "By stage: phosphate binders, antihypertensives such as amlodipine or telmisartan, an angiotensin receptor blocker or ACE inhibitor for proteinuria, antiemetics (maropitant), appetite stimulants (mirtazapine, capromorelin) and potassium supplementation; dose per current formulary and the patient's weight.",
      dietary_management:
        'A renal prescription diet restricted in phosphorus and with moderate high-quality protein, introduced gradually; wet food and water fountains to improve water intake.',
      lifestyle_modifications:
        'Ensure constant access to fresh water at several places, minimise stress, and keep litter trays clean and plentiful because of polyuria.',
      symptom_management:
        'Subcutaneous fluids at home for dehydration, antiemetics and antacids for uraemic nausea, and erythropoiesis-stimulating agents for significant anaemia.',
      'non-surgical_options':
        'Hospitalisation with intravenous fluids for uraemic crises; haemodialysis is available at some referral centres.',
      possible_surgical_options:
        'Not usually surgical; feeding tube placement can support nutrition, and renal transplantation is performed at very few centres.',
      preventative_options:
        'Avoid nephrotoxic drugs such as NSAIDs in at-risk cats, maintain hydration, treat dental disease and screen seniors annually with creatinine, SDMA and urinalysis.',
      regular_veterinary_monitoring:
        'Bloodwork, urinalysis, urine protein:creatinine ratio, blood pressure and weight every three to six months, more often in advanced stages or after treatment changes.',
      owner_education:
        'The disease is progressive but often manageable for a long time; watch appetite, weight and thirst, and seek care for vomiting or a cat that stops eating.',
    },
  },
  {
    id: 'feline-idiopathic-cystitis',
    name: 'Feline idiopathic cystitis',
    aliases: [
      'FIC',
      'FLUTD',
      'feline lower urinary tract disease',
      'interstitial cystitis',
      'sterile cystitis',
      'idiopathic cystitis',
    ],
    species: ['cat'],
    signs: [
      ['straining to urinate', 3],
      ['stranguria', 3],
      ['pollakiuria', 3],
      ['dysuria', 2],
      ['haematuria', 2],
      ['hematuria', 2],
      ['blood in urine', 2],
      ['periuria', 3],
      ['urinating outside the litter box', 3],
      ['inappropriate urination', 2],
      ['licking genitals', 2],
      ['vocalising in the litter tray', 2],
    ],
    predispositions: ['young adult', 'indoor cat', 'overweight', 'multi-cat household', 'neutered'],
    ddx: {
      name: 'Feline idiopathic cystitis',
      cause_etiology:
        'A sterile inflammatory bladder disorder linked to abnormalities of the stress response, the glycosaminoglycan layer of the urothelium and neurogenic inflammation; it is the commonest cause of lower urinary tract signs in young cats.',
      commonly_confused_with:
        'Urolithiasis, urethral plugs or obstruction, bacterial urinary tract infection, behavioural house-soiling and bladder neoplasia.',
      diagnosis_rule_outs:
        'A diagnosis of exclusion: urinalysis and urine culture by cystocentesis, and abdominal radiographs or ultrasound to exclude uroliths and masses; always palpate the bladder to rule out obstruction.',
      prognosis:
        'Good; most episodes resolve within a week, but recurrence is common and male cats may progress to obstruction.',
      risk_factors_predispositions:
        'Young to middle-aged indoor cats, obesity, low activity, dry-food diets, multi-cat households and environmental stressors such as moves or conflict with other cats.',
      symptoms_clinical_signs:
        'Pollakiuria, stranguria, dysuria, haematuria, urinating outside the litter tray and excessive grooming of the perineum or ventral abdomen.',
    },
    treatment: {
      diagnosis_name: 'Feline idiopathic cystitis',
      treatment_plan_name: 'Multimodal environmental modification and analgesia',
      treatment_goal: 'Relieve pain during episodes and reduce the frequency and severity of recurrences.',
      medications:
        "Analgesia during flares, such as buprenorphine or a short course of an NSAID in a well-hydrated cat with normal renal function; dose per current formulary and the patient's weight. Antibiotics are not indicated without a positive culture.",
      dietary_management:
        'Increase water intake with wet food, water fountains and added water; a prescription urinary or stress-reduction diet may reduce recurrences.',
      lifestyle_modifications:
        'Multimodal environmental modification: enough clean litter trays (one per cat plus one) in quiet places, separate resources, hiding and perching places, play, predictable routine and management of conflict between cats.',
      symptom_management:
        'Analgesia, stress reduction and encouragement of water intake; synthetic feline facial pheromone may help some cats.',
      'non-surgical_options':
        'Environmental enrichment and diet change are the core of treatment; amitriptyline is reserved for severe recurrent cases.',
      possible_surgical_options:
        'Surgery is not part of managing idiopathic cystitis itself; perineal urethrostomy is considered only for recurrent urethral obstruction in male cats.',
      preventative_options: 'Keep water intake high, keep the cat lean and active, and reduce environmental stress.',
      regular_veterinary_monitoring:
        'Recheck if signs last more than a few days or recur; repeat urinalysis to exclude infection or crystals with each recurrence.',
      owner_education:
        'A male cat straining without passing urine is an emergency; stress management is the most important long-term treatment.',
    },
  },
  {
    id: 'feline-urethral-obstruction',
    name: 'Urethral obstruction',
    aliases: ['blocked cat', 'blocked tom', 'UO', 'urethral plug', 'obstructed cat', 'FLUTD obstruction'],
    species: ['cat'],
    signs: [
      ['straining to urinate', 3],
      ['dysuria in a male cat', 3],
      ['no urine produced', 3],
      ['anuria', 3],
      ['large firm bladder', 3],
      ['turgid bladder', 3],
      ['blocked', 3],
      ['stranguria', 2],
      ['vocalising', 2],
      ['licking penis', 2],
      ['vomiting', 1],
      ['lethargy', 1],
      ['collapse', 2],
      ['bradycardia', 2],
    ],
    predispositions: ['male cat', 'neutered male', 'young adult', 'overweight', 'indoor cat'],
    ddx: {
      name: 'Urethral obstruction',
      cause_etiology:
        "Blockage of the male cat's narrow urethra by a matrix-crystalline plug, urolith or urethral spasm and swelling from idiopathic cystitis, leading to post-renal azotaemia and hyperkalaemia.",
      commonly_confused_with:
        'Non-obstructive idiopathic cystitis, constipation (owners mistake straining), bacterial cystitis and urolithiasis without obstruction.',
      diagnosis_rule_outs:
        'A large, firm, painful bladder that cannot be expressed in a male cat with stranguria confirms it; check electrolytes (potassium), renal values and ECG at once, and take radiographs for uroliths.',
      prognosis:
        'Good with prompt treatment, though re-obstruction occurs in a minority of cats in the following days or months; untreated it is fatal within a few days from hyperkalaemia and uraemia.',
      risk_factors_predispositions:
        'Young to middle-aged male cats, especially neutered, overweight and indoor cats on dry diets; a history of idiopathic cystitis or struvite crystalluria.',
      symptoms_clinical_signs:
        'Repeated straining with little or no urine, vocalising, licking the penis, hiding; later vomiting, depression, hypothermia, bradycardia and collapse.',
    },
    treatment: {
      diagnosis_name: 'Urethral obstruction',
      treatment_plan_name: 'Emergency relief of urethral obstruction',
      treatment_goal: 'Stabilise hyperkalaemia and azotaemia, restore urethral patency and prevent re-obstruction.',
      medications:
        "Opioid analgesia and sedation or anaesthesia for catheterisation; calcium gluconate, insulin with dextrose or sodium bicarbonate for dangerous hyperkalaemia; prazosin or other urethral relaxants are used by some clinicians; dose per current formulary and the patient's weight.",
      dietary_management:
        'After discharge, a prescription urinary diet (preferably wet) that dissolves struvite and increases water intake.',
      lifestyle_modifications:
        'Environmental modification as for idiopathic cystitis: more water, clean and plentiful litter trays, stress reduction and weight control.',
      symptom_management:
        'Intravenous fluids, analgesia, an indwelling urinary catheter for one to three days and monitoring for post-obstructive diuresis.',
      'non-surgical_options':
        'Urethral catheterisation with retropulsion of the plug is the standard treatment; decompressive cystocentesis may be used before catheterisation.',
      possible_surgical_options:
        'Perineal urethrostomy for recurrent obstruction or a urethral stricture; cystotomy for bladder stones that will not dissolve.',
      preventative_options: 'Wet or urinary diets, increased water intake, weight management and stress reduction.',
      regular_veterinary_monitoring:
        'Monitor urine output, electrolytes and renal values in hospital; recheck within days of discharge and repeat urinalysis in a few weeks.',
      owner_education:
        'Recurrence is possible, especially in the first days after discharge; a male cat straining without producing urine must be seen immediately, day or night.',
    },
  },
  {
    id: 'urolithiasis',
    name: 'Urolithiasis',
    aliases: [
      'bladder stones',
      'uroliths',
      'cystic calculi',
      'cystoliths',
      'struvite',
      'calcium oxalate',
      'urinary stones',
    ],
    species: ['dog', 'cat'],
    signs: [
      ['haematuria', 2],
      ['hematuria', 2],
      ['pollakiuria', 2],
      ['stranguria', 2],
      ['dysuria', 2],
      ['palpable bladder stones', 3],
      ['radiopaque calculi', 3],
      ['crystalluria', 2],
      ['recurrent uti', 2],
      ['inappropriate urination', 1],
      ['straining to urinate', 2],
    ],
    predispositions: [
      'miniature schnauzer',
      'shih tzu',
      'bichon frise',
      'yorkshire terrier',
      'dalmatian',
      'small breed',
      'middle-aged',
      'female dog',
    ],
    ddx: {
      name: 'Urolithiasis',
      cause_etiology:
        'Mineral stones in the urinary tract; struvite (often infection-induced in dogs, sterile in cats) and calcium oxalate are commonest, with urate (Dalmatians, portosystemic shunts) and cystine stones less often.',
      commonly_confused_with:
        'Bacterial cystitis, feline idiopathic cystitis, bladder neoplasia such as transitional cell carcinoma, and urethral or prostatic disease.',
      diagnosis_rule_outs:
        'Abdominal radiographs (most stones are radiopaque) or ultrasound for radiolucent stones; urinalysis with culture; quantitative stone analysis after removal directs prevention.',
      prognosis:
        'Good; struvite stones often dissolve medically and others are removed, but recurrence is common without preventive measures.',
      risk_factors_predispositions:
        'Small breeds such as Miniature Schnauzers, Shih Tzus, Bichons and Yorkshire Terriers; Dalmatians and English Bulldogs for urate; female dogs with urinary infection for struvite; concentrated urine and certain diets.',
      symptoms_clinical_signs:
        'Haematuria, pollakiuria, stranguria and inappropriate urination; some stones are found incidentally, and urethral stones can cause obstruction.',
    },
    treatment: {
      diagnosis_name: 'Urolithiasis',
      treatment_plan_name: 'Urolith dissolution or removal and prevention',
      treatment_goal:
        'Remove or dissolve stones, relieve or prevent obstruction, treat infection and prevent recurrence.',
      medications:
        "Culture-based antibiotics for infection-associated struvite, given throughout dissolution; potassium citrate for calcium oxalate prevention and allopurinol with a low-purine diet for urate stones; dose per current formulary and the patient's weight.",
      dietary_management:
        'A struvite-dissolving prescription diet, then a stone-type-specific preventive diet; wet food and added water to lower urine specific gravity.',
      lifestyle_modifications:
        'Encourage frequent urination with regular toilet breaks and easy access to fresh water.',
      symptom_management:
        'Analgesia and anti-inflammatory treatment for discomfort while stones dissolve or before removal.',
      'non-surgical_options':
        'Medical dissolution for struvite; voiding urohydropropulsion for small stones, cystoscopic removal or laser lithotripsy at referral centres.',
      possible_surgical_options:
        'Cystotomy for stones that cannot dissolve or cause obstruction; percutaneous cystolithotomy as a minimally invasive option; urethrostomy for recurrent urethral obstruction.',
      preventative_options: 'Diet specific to the stone type, dilute urine, and periodic urinalysis and imaging.',
      regular_veterinary_monitoring:
        'Radiographs every two to four weeks during dissolution, then urinalysis and imaging every three to six months to catch recurrence early.',
      owner_education:
        'Stones return if prevention stops; feed only the prescribed diet during dissolution, and report straining without urine as an emergency.',
    },
  },
  {
    id: 'canine-bacterial-cystitis',
    name: 'Bacterial cystitis',
    aliases: ['UTI', 'urinary tract infection', 'bladder infection', 'sporadic bacterial cystitis', 'cystitis'],
    species: ['dog'],
    signs: [
      ['pollakiuria', 2],
      ['frequent urination', 2],
      ['stranguria', 2],
      ['dysuria', 2],
      ['haematuria', 2],
      ['hematuria', 2],
      ['inappropriate urination', 1],
      ['urinary accidents', 1],
      ['malodorous urine', 2],
      ['bacteriuria', 3],
      ['pyuria', 3],
      ['positive urine culture', 3],
    ],
    predispositions: ['female dog', 'spayed female', 'recessed vulva', 'diabetic', "cushing's", 'obese'],
    ddx: {
      name: 'Bacterial cystitis',
      cause_etiology:
        'Ascending bacterial infection of the bladder, most often Escherichia coli, followed by Staphylococcus, Enterococcus, Proteus and Klebsiella species.',
      commonly_confused_with:
        'Urolithiasis, transitional cell carcinoma, prostatic disease, urinary incontinence and behavioural house-soiling.',
      diagnosis_rule_outs:
        'Urinalysis with sediment (pyuria, bacteriuria) and quantitative culture with susceptibility on a cystocentesis sample; recurrent cases need imaging and screening for endocrine disease.',
      prognosis:
        'Excellent for sporadic cystitis; recurrent infection is good once the underlying cause is found and corrected.',
      risk_factors_predispositions:
        'Female dogs, a recessed vulva or perivulvar dermatitis, urolithiasis, diabetes mellitus, hyperadrenocorticism, immunosuppressive therapy, incontinence and neurological bladder dysfunction.',
      symptoms_clinical_signs:
        'Pollakiuria, stranguria, dysuria, haematuria, urinary accidents and malodorous urine; fever and systemic signs suggest pyelonephritis or prostatitis rather than simple cystitis.',
    },
    treatment: {
      diagnosis_name: 'Bacterial cystitis',
      treatment_plan_name: 'Targeted antimicrobial therapy for cystitis',
      treatment_goal: 'Eliminate infection, relieve signs and identify and correct any predisposing cause.',
      medications:
        "A short course (three to five days) of amoxicillin or trimethoprim-sulphonamide for sporadic cystitis, chosen or adjusted by culture and susceptibility; NSAID analgesia while awaiting culture; dose per current formulary and the patient's weight.",
      dietary_management:
        'No special diet for simple cystitis; wet food and extra water to encourage dilute urine and frequent voiding.',
      lifestyle_modifications: 'Provide frequent opportunities to urinate and keep the perivulvar area clean and dry.',
      symptom_management:
        'NSAID analgesia for discomfort; some sporadic cases settle with analgesia alone while culture is pending.',
      'non-surgical_options':
        'Treat underlying diseases such as diabetes or hyperadrenocorticism; weight loss helps dogs with a recessed vulva.',
      possible_surgical_options:
        'Not usually surgical; episioplasty for a recessed vulva or cystotomy for associated uroliths may be needed in recurrent cases.',
      preventative_options:
        'Control predisposing diseases; cranberry extracts and probiotics have limited evidence. Avoid treating subclinical bacteriuria without signs.',
      regular_veterinary_monitoring:
        'Recheck if signs persist or recur; repeat culture after treatment for recurrent or complicated infections only.',
      owner_education:
        'Complete the course as prescribed; recurrent infections need investigation rather than repeated antibiotics.',
    },
  },
];
