// Steroids, hormones and the heart: prednisolone, the thyroid drugs, insulin, furosemide and pimobendan.
import { each, iuKg, mgKg, NO_WITHDRAWAL, type Drug } from './types.ts';

export const HORMONES_HEART: readonly Drug[] = [
  {
    name: 'Prednisolone',
    names: ['prednisolone', 'prednisone', 'pred', 'prednicare', 'prednidale'],
    doses: {
      dog: [
        mgKg([0.5, 1], 'PO once daily to calm inflammation'),
        mgKg(2, 'a day to suppress the immune system, then tapered'),
      ],
      cat: [
        mgKg([1, 2], 'PO once daily to calm inflammation'),
        mgKg([2, 4], 'a day to suppress the immune system, then tapered'),
      ],
    },
    plain: {
      dog: 'Prednisolone is a steroid that calms inflammation and allergy at low doses and the immune system at higher doses; dogs drink, eat and urinate more while on it.',
      cat: 'Prednisolone is a steroid that cats tolerate well; it calms inflammation and allergy, and cats need prednisolone rather than prednisone.',
    },
    card: {
      drug_name_and_classification: 'Prednisolone: glucocorticoid (intermediate-acting corticosteroid).',
      indications_and_uses:
        'Allergic and inflammatory disease, immune-mediated disease, some cancers (lymphoma), hypoadrenocorticism (with a mineralocorticoid).',
      pharmacology_and_mechanism_of_action:
        'Binds glucocorticoid receptors, suppressing inflammatory and immune gene expression.',
      dosing_by_species:
        'Dog: 0.5-1 mg/kg PO once daily (anti-inflammatory); 2 mg/kg/day (immunosuppressive), then tapered. Cat: 1-2 mg/kg PO once daily (anti-inflammatory); 2-4 mg/kg/day (immunosuppressive), then tapered.',
      administration_and_route: 'Oral tablets with food, in the morning for dogs and in the evening for cats.',
      contraindications:
        'Systemic fungal infections, gastrointestinal ulceration, with NSAIDs; diabetes mellitus (relative).',
      precautions_and_warnings: 'Taper after more than 2 weeks of use; may unmask diabetes, especially in cats.',
      adverse_effects:
        'Polyuria, polydipsia, polyphagia, panting, muscle wasting; iatrogenic hyperadrenocorticism in long use.',
      drug_interactions: 'NSAIDs (ulceration), insulin (higher need), diuretics (hypokalaemia).',
      monitoring_parameters: 'Water intake, appetite, weight, glucose in cats, urine for infection in long use.',
      overdose_information: 'Acute overdose rarely serious; long use leads to hyperadrenocorticism.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information: 'Do not stop suddenly; your pet will drink and urinate more and may be hungrier while on it.',
      notes: 'Cats convert prednisone poorly: use prednisolone.',
    },
  },
  {
    name: 'Furosemide',
    names: ['furosemide', 'frusemide', 'lasix', 'salix', 'frusecare', 'dimazon'],
    doses: {
      dog: [
        mgKg([2, 4], 'IV or IM in acute heart failure, repeated every 1-4 hours to effect'),
        mgKg([1, 3], 'PO every 8-12 hours to keep fluid off'),
      ],
      cat: [
        mgKg([1, 2], 'IV or IM in acute heart failure, repeated to effect'),
        mgKg([1, 2], 'PO every 12-24 hours to keep fluid off'),
      ],
    },
    plain: {
      dog: 'Furosemide is a water tablet that clears fluid from the lungs and belly in heart failure; dogs on it drink and urinate much more.',
      cat: 'Furosemide clears fluid from the lungs in cats with heart failure, at lower doses than in dogs, because cats dehydrate easily.',
    },
    card: {
      drug_name_and_classification: 'Furosemide: loop diuretic.',
      indications_and_uses:
        'Congestive heart failure (pulmonary oedema, effusions); other oedema; with fluids in oliguric kidney injury (rarely).',
      pharmacology_and_mechanism_of_action:
        'Blocks the Na-K-2Cl co-transporter in the thick ascending limb of the loop of Henle, causing a brisk loss of sodium, chloride and water.',
      dosing_by_species:
        'Dog: 2-4 mg/kg IV or IM in acute heart failure, repeated every 1-4 hours to effect; 1-3 mg/kg PO every 8-12 hours for maintenance, at the lowest dose that keeps the patient free of fluid. Cat: 1-2 mg/kg IV or IM in acute heart failure, repeated to effect; 1-2 mg/kg PO every 12-24 hours for maintenance.',
      administration_and_route: 'Injectable IV, IM or SC; oral tablets or solution.',
      contraindications: 'Anuria, dehydration, hypovolaemia; electrolyte depletion.',
      precautions_and_warnings: 'Dehydration, prerenal azotaemia, hypokalaemia; cats are more sensitive than dogs.',
      adverse_effects:
        'Polyuria, polydipsia, dehydration, hypokalaemia, hyponatraemia, azotaemia; ototoxicity at high IV doses.',
      drug_interactions:
        'NSAIDs (reduced effect, kidney risk); corticosteroids (hypokalaemia); aminoglycosides (ototoxicity, nephrotoxicity); ACE inhibitors (azotaemia).',
      monitoring_parameters:
        'Resting respiratory rate at home, hydration, renal values and electrolytes 3-7 days after each dose change.',
      overdose_information:
        'Dehydration and electrolyte loss: IV fluids with electrolytes, cautiously in heart failure.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Your pet will drink and urinate more: always leave water out. Count its sleeping breathing rate daily and call if it is over 30 a minute.',
      notes: 'Torasemide is an alternative for dogs that no longer respond.',
    },
  },
  {
    name: 'Pimobendan',
    names: ['pimobendan', 'vetmedin', 'cardisure', 'pimocard', 'fortekor-pimo'],
    doses: {
      dog: [mgKg([0.2, 0.3], 'PO every 12 hours, an hour before food')],
      cat: [mgKg(0.25, 'PO every 12 hours (off-label)')],
    },
    plain: {
      dog: 'Pimobendan helps a failing heart pump harder and opens the blood vessels; given twice a day, it delays heart failure in dogs with mitral valve disease or DCM.',
      cat: 'Pimobendan is used off-label in cats with heart failure, twice a day, except where the heart muscle blocks its own outflow.',
    },
    card: {
      drug_name_and_classification: 'Pimobendan: inodilator (calcium sensitiser and phosphodiesterase III inhibitor).',
      indications_and_uses:
        'Congestive heart failure from myxomatous mitral valve disease or dilated cardiomyopathy in dogs; preclinical MMVD with cardiomegaly (stage B2) and preclinical DCM in Dobermanns.',
      pharmacology_and_mechanism_of_action:
        'Sensitises cardiac troponin C to calcium (stronger contraction without more oxygen use) and inhibits PDE III (vasodilation).',
      dosing_by_species:
        'Dog: 0.2-0.3 mg/kg PO every 12 hours, about an hour before food (0.5 mg/kg a day in two doses). Cat: 0.25 mg/kg PO every 12 hours (off-label; 1.25 mg per cat).',
      administration_and_route: 'Oral capsules or chewable tablets on an empty stomach; injectable IV in emergencies.',
      contraindications:
        'Hypertrophic cardiomyopathy with outflow obstruction, aortic stenosis and other conditions where more output is impossible.',
      precautions_and_warnings: "Can worsen arrhythmias; use in cats with a cardiologist's advice.",
      adverse_effects: 'Inappetence, vomiting, diarrhoea; arrhythmias; rarely increased mitral regurgitation.',
      drug_interactions: 'Beta-blockers and calcium-channel blockers (verapamil) reduce its effect.',
      monitoring_parameters: 'Resting respiratory rate, heart rate and rhythm, echocardiography.',
      overdose_information: 'Tachycardia, hypotension, vomiting: supportive care.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give twice a day about an hour before meals. Count its sleeping breathing rate daily and call if it rises.',
      notes: 'Given with furosemide, an ACE inhibitor and spironolactone in congestive heart failure.',
    },
  },
  {
    name: 'Levothyroxine',
    names: ['levothyroxine', 'thyroxine', 'l-thyroxine', 'soloxine', 'thyro-tabs', 'forthyron', 'leventa', 'canitroid'],
    doses: {
      dog: [mgKg(0.02, 'PO every 12 hours, or 0.02 mg/kg once daily when controlled')],
      cat: [each([0.05, 0.1], 'mg', 'PO once daily')],
    },
    plain: {
      dog: 'Levothyroxine replaces the thyroid hormone that hypothyroid dogs lack; it is given for life, once or twice a day, at the same time each day.',
      cat: 'Levothyroxine is given to cats only when their thyroid hormone is too low, usually after treatment for an overactive thyroid.',
    },
    card: {
      drug_name_and_classification: 'Levothyroxine sodium: synthetic thyroid hormone (T4).',
      indications_and_uses:
        'Hypothyroidism in dogs; iatrogenic hypothyroidism in cats after radioiodine or thyroidectomy; congenital hypothyroidism.',
      pharmacology_and_mechanism_of_action: 'Converted to T3 in tissues; replaces the missing hormone.',
      dosing_by_species:
        'Dog: 0.02 mg/kg PO every 12 hours (up to 0.8 mg per dose), once daily when controlled; adjusted on post-pill T4 after 4 weeks. Cat: 0.05-0.1 mg per cat PO once daily.',
      administration_and_route:
        'Oral tablets or solution, consistently with or without food (food changes absorption).',
      contraindications: 'Untreated hypoadrenocorticism; thyrotoxicosis.',
      precautions_and_warnings:
        'Start low in heart disease, diabetes or old age; confirm hypothyroidism before starting (many ill dogs have low T4).',
      adverse_effects: 'Signs of overdose: restlessness, panting, weight loss, polyuria, tachycardia.',
      drug_interactions:
        'Glucocorticoids, phenobarbital and sulphonamides lower thyroid values; insulin need may change.',
      monitoring_parameters: 'T4 4-6 hours after a dose, 4 weeks after starting or any change; weight, coat, activity.',
      overdose_information: 'Signs of hyperthyroidism: stop for a few days, then restart at a lower dose.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give at the same times each day, in the same way with respect to food. Coat and weight improve over weeks.',
      notes: 'Lethargy improves in 1-2 weeks; skin and coat take up to 3 months.',
    },
  },
  {
    name: 'Methimazole',
    names: ['methimazole', 'thiamazole', 'felimazole', 'tapazole', 'thyronorm', 'carbimazole', 'vidalta'],
    doses: {
      dog: 'Methimazole is not for routine use in dogs: an overactive thyroid is rare in them and usually a thyroid tumour, treated by surgery or radiotherapy.',
      cat: [each([1.25, 2.5], 'mg', 'PO every 12 hours to start, then adjusted on T4')],
    },
    plain: {
      dog: 'Methimazole is not for routine use in dogs: an overactive thyroid is rare in them and usually a thyroid tumour, treated by surgery or radiotherapy.',
      cat: 'Methimazole controls an overactive thyroid in cats; it is given for life by tablet or as a gel rubbed on the ear, with blood tests to set the dose.',
    },
    card: {
      drug_name_and_classification: 'Methimazole (thiamazole): antithyroid drug (thioureylene).',
      indications_and_uses:
        'Hyperthyroidism in cats: long-term control, or stabilisation before thyroidectomy or radioiodine.',
      pharmacology_and_mechanism_of_action:
        'Inhibits thyroid peroxidase, blocking the synthesis of T4 and T3 (not their release).',
      dosing_by_species:
        'Dog: not for routine use; canine hyperthyroidism is rare and usually a thyroid carcinoma. Cat: 1.25-2.5 mg per cat PO every 12 hours to start, then adjusted in 1.25-2.5 mg steps on T4 every 2-3 weeks; carbimazole 10-15 mg per cat once daily (modified release).',
      administration_and_route:
        'Oral tablets (do not split coated tablets); compounded transdermal gel on the inner ear.',
      contraindications: 'Blood dyscrasias, autoimmune disease, primary liver disease; pregnancy and lactation.',
      precautions_and_warnings:
        'Treating the thyroid can unmask kidney disease: check renal values once the cat is euthyroid. Wear gloves when giving it.',
      adverse_effects:
        'Vomiting, inappetence; facial pruritus and excoriation; hepatopathy; neutropenia, thrombocytopenia, agranulocytosis (first 3 months).',
      drug_interactions: 'Phenobarbital lowers its effect; may increase warfarin effect; benzimidazoles (rare).',
      monitoring_parameters:
        'T4, haematology, liver and renal values at 3, 6 and 10 weeks, then every 3-6 months; weight and blood pressure.',
      overdose_information: 'Hypothyroidism and azotaemia: lower the dose.',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Give at the same times each day; wear gloves and wash your hands. Call if your cat scratches its face or stops eating.',
      notes: 'Radioiodine cures most cats and spares them daily tablets.',
    },
  },
  {
    name: 'Insulin',
    names: [
      'insulin',
      'lente insulin',
      'porcine zinc insulin',
      'caninsulin',
      'vetsulin',
      'glargine',
      'insulin glargine',
      'lantus',
      'protamine zinc insulin',
      'pzi',
      'prozinc',
      'detemir',
    ],
    doses: {
      dog: [iuKg(0.25, 'SC every 12 hours with a meal, as lente (porcine zinc) insulin, to start')],
      cat: [iuKg([0.25, 0.5], 'SC every 12 hours with a meal, as glargine or protamine zinc insulin, to start')],
    },
    plain: {
      dog: 'Insulin treats diabetes in dogs: injected under the skin twice a day with a meal, usually lente insulin, starting low and adjusted on glucose curves.',
      cat: 'Insulin treats diabetes in cats: glargine or protamine zinc insulin twice a day with a meal; with a low-carbohydrate diet many cats go into remission.',
    },
    card: {
      drug_name_and_classification:
        'Insulin: lente porcine zinc insulin (intermediate-acting), protamine zinc insulin and glargine (longer-acting).',
      indications_and_uses:
        'Diabetes mellitus; regular (soluble) insulin IV or IM for diabetic ketoacidosis and hyperkalaemia.',
      pharmacology_and_mechanism_of_action:
        'Binds insulin receptors, moving glucose into cells and stopping ketone production.',
      dosing_by_species:
        'Dog: 0.25 IU/kg SC every 12 hours with a meal, as lente insulin, to start; adjusted by no more than 10-20% at a time. Cat: 0.25-0.5 IU/kg (of ideal weight) SC every 12 hours with a meal, as glargine or protamine zinc insulin, to start (1-2 IU per cat); 0.5 IU/kg when glucose is above 20 mmol/L.',
      administration_and_route:
        "SC injection with a syringe matched to the insulin's strength (40 IU/mL or 100 IU/mL) or a pen; roll lente and PZI gently, never shake.",
      contraindications: 'Hypoglycaemia.',
      precautions_and_warnings:
        "Hypoglycaemia, especially as cats go into remission; the syringe must match the insulin's strength. Do not give if the pet has not eaten; give half the dose and call.",
      adverse_effects:
        'Hypoglycaemia (weakness, trembling, seizures); Somogyi effect; reactions at the injection site.',
      drug_interactions:
        'Glucocorticoids, progestogens and thiazides raise insulin need; beta-blockers can hide hypoglycaemia.',
      monitoring_parameters:
        'Glucose curves or a continuous glucose monitor, fructosamine, water intake, appetite, weight, urine ketones.',
      overdose_information:
        'Hypoglycaemia: glucose syrup on the gums at home, IV dextrose in the clinic; monitor for 24 hours (longer with glargine).',
      withdrawal_times: NO_WITHDRAWAL,
      client_information:
        'Feed, then inject, twice a day at the same times. If your pet is weak or trembling, rub honey or syrup on its gums and call the clinic.',
      notes:
        'Insulin strengths differ (40 IU/mL for veterinary lente and PZI, 100 IU/mL for glargine): check the syringe.',
    },
  },
];
