import type { Condition } from '../types.ts';

export const ENDOCRINE: Condition[] = [
  {
    id: 'feline-hyperthyroidism',
    name: 'Hyperthyroidism',
    aliases: ['hyperthyroid', 'feline hyperthyroidism', 'HT', 'thyrotoxicosis'],
    species: ['cat'],
    signs: [
      ['weight loss', 2],
      ['polyphagia', 2],
      ['increased appetite', 2],
      ['ravenous', 2],
      ['palpable thyroid nodule', 3],
      ['goitre', 3],
      ['goiter', 3],
      ['tachycardia', 2],
      ['heart murmur', 1],
      ['hyperactivity', 2],
      ['unkempt coat', 1],
      ['vomiting', 1],
      ['pu/pd', 1],
      ['elevated t4', 3],
    ],
    predispositions: ['senior', 'older cat', 'geriatric', 'domestic shorthair'],
    ddx: {
      name: 'Hyperthyroidism',
      cause_etiology:
        'Excess thyroxine production, in most cats from benign adenomatous hyperplasia or adenoma of one or both thyroid lobes; thyroid carcinoma accounts for a small minority of cases.',
      commonly_confused_with:
        'Diabetes mellitus, chronic kidney disease, chronic enteropathy or intestinal lymphoma, all of which can cause weight loss in an older cat.',
      diagnosis_rule_outs:
        'Serum total T4 is elevated in most cases; when it sits in the upper reference range with compatible signs, repeat it or measure free T4 by equilibrium dialysis. Screen renal function, urinalysis and blood pressure, and auscultate for secondary cardiac changes.',
      prognosis:
        'Good with treatment; radioiodine or thyroidectomy are usually curative. Treatment can unmask underlying chronic kidney disease, which then drives the long-term outlook.',
      risk_factors_predispositions:
        'Middle-aged to senior cats, most over ten years of age; proposed risk factors include canned diets, iodine variability and environmental goitrogens.',
      symptoms_clinical_signs:
        'Weight loss despite a good or ravenous appetite, polyuria and polydipsia, hyperactivity, vomiting, an unkempt coat, tachycardia or a gallop rhythm, and often a palpable cervical thyroid nodule.',
    },
    treatment: {
      diagnosis_name: 'Hyperthyroidism',
      treatment_plan_name: 'Control of thyroid hormone excess',
      treatment_goal:
        'Restore euthyroidism, reverse weight loss and cardiovascular effects, and protect renal function while doing so.',
      medications:
        "Methimazole or carbimazole (antithyroid drugs), oral or transdermal, titrated to effect; dose per current formulary and the patient's weight. A beta-blocker such as atenolol may control tachycardia or hypertension in the short term.",
      dietary_management:
        'An iodine-restricted prescription diet is an option for cats that eat nothing else; otherwise feed a high-quality, calorie-dense diet to restore body condition.',
      lifestyle_modifications:
        'Keep the cat indoors if it is on an iodine-restricted diet, so that it cannot eat other food; keep medication times regular.',
      symptom_management:
        'Manage hypertension and tachycardia while the cat becomes euthyroid, and support hydration and appetite as needed.',
      'non-surgical_options':
        'Radioactive iodine (I-131) therapy at a licensed facility is the treatment of choice and usually curative; lifelong medical management or dietary iodine restriction are alternatives.',
      possible_surgical_options:
        'Thyroidectomy (unilateral or bilateral) is curative for adenomas; it carries a risk of hypocalcaemia from parathyroid damage and needs a stable anaesthetic candidate.',
      preventative_options:
        'No proven prevention; regular senior health checks with T4 screening allow early detection.',
      regular_veterinary_monitoring:
        'Recheck T4, renal values, body weight and blood pressure two to four weeks after starting or changing treatment, then every three to six months; watch haematology for drug-induced cytopenias early on.',
      owner_education:
        'Explain that medical treatment controls but does not cure the disease, that hidden kidney disease may appear once T4 falls, and to report facial pruritus, vomiting or lethargy on antithyroid drugs.',
    },
  },
  {
    id: 'diabetes-mellitus',
    name: 'Diabetes mellitus',
    aliases: ['diabetes', 'DM', 'diabetic', 'sugar diabetes', 'DKA'],
    species: ['dog', 'cat'],
    signs: [
      ['polyuria', 2],
      ['polydipsia', 2],
      ['pu/pd', 2],
      ['drinking more', 2],
      ['polyphagia', 2],
      ['weight loss', 1],
      ['glucosuria', 3],
      ['hyperglycaemia', 3],
      ['hyperglycemia', 3],
      ['plantigrade stance', 3],
      ['cataracts', 2],
      ['ketonuria', 3],
      ['lethargy', 1],
      ['vomiting', 1],
    ],
    predispositions: [
      'middle-aged',
      'senior',
      'obese',
      'overweight',
      'neutered male cat',
      'burmese',
      'intact female dog',
      'miniature schnauzer',
      'samoyed',
    ],
    ddx: {
      name: 'Diabetes mellitus',
      cause_etiology:
        'Persistent hyperglycaemia from insulin deficiency (in dogs mostly immune-mediated or pancreatitis-related beta-cell loss) or insulin resistance with beta-cell exhaustion (in cats, resembling human type 2 diabetes).',
      commonly_confused_with:
        'Stress hyperglycaemia in cats, hyperadrenocorticism, hyperthyroidism, chronic kidney disease and renal glucosuria.',
      diagnosis_rule_outs:
        'Persistent fasting hyperglycaemia with glucosuria; confirm with elevated fructosamine, especially in stressed cats. Check urine for ketones and infection, and screen for concurrent pancreatitis, hyperadrenocorticism or acromegaly.',
      prognosis:
        'Good for uncomplicated cases with committed owners; many cats reach remission with early tight control and a low-carbohydrate diet, while dogs need lifelong insulin. Diabetic ketoacidosis is guarded.',
      risk_factors_predispositions:
        'Cats: obesity, physical inactivity, male neuter status, age, Burmese breed and glucocorticoid or progestogen use. Dogs: middle age, intact females (dioestrus), pancreatitis, and breeds such as Miniature Schnauzer and Samoyed.',
      symptoms_clinical_signs:
        'Polyuria, polydipsia, polyphagia with weight loss; cataracts in dogs and a plantigrade stance from neuropathy in cats; vomiting, anorexia and depression signal ketoacidosis.',
    },
    treatment: {
      diagnosis_name: 'Diabetes mellitus',
      treatment_plan_name: 'Insulin therapy and glycaemic control',
      treatment_goal:
        'Resolve clinical signs, avoid hypoglycaemia and ketoacidosis, and in cats aim for diabetic remission.',
      medications:
        "Insulin (for example lente porcine zinc insulin in dogs, glargine or protamine zinc insulin in cats) given twice daily with meals, starting low and titrating to effect; dose per current formulary and the patient's weight. SGLT2 inhibitors are an option in selected newly diagnosed cats that are not ketotic.",
      dietary_management:
        'Cats: high-protein, low-carbohydrate diet, ideally wet food. Dogs: a consistent, high-fibre, moderate-fat diet fed at the same times as insulin. Aim for gradual weight loss in obese patients.',
      lifestyle_modifications:
        'Keep meals, insulin and exercise at consistent times each day; spay intact female dogs to remove progesterone-driven insulin resistance.',
      symptom_management:
        'Treat concurrent infection or pancreatitis; hospitalise ketoacidotic patients for fluids, electrolyte correction and short-acting insulin.',
      'non-surgical_options':
        'Home glucose monitoring with a glucometer or a continuous glucose monitor; in cats, diet change and tight glycaemic control may bring remission.',
      possible_surgical_options:
        'Surgery is not part of diabetes management itself; ovariohysterectomy of intact female dogs is advised to remove dioestrus-related insulin resistance.',
      preventative_options:
        'Maintain lean body condition, encourage activity, and avoid long-acting glucocorticoids and progestogens in at-risk cats.',
      regular_veterinary_monitoring:
        'Glucose curves or continuous monitoring one to two weeks after any dose change, fructosamine periodically, urine cultures, and rechecks every three to six months once stable.',
      owner_education:
        'Teach injection technique, insulin handling and storage, and recognition of hypoglycaemia (weakness, trembling, seizures) with oral sugar as first aid; never give insulin to a pet that has not eaten without calling the clinic.',
    },
  },
  {
    id: 'canine-hypothyroidism',
    name: 'Hypothyroidism',
    aliases: ['hypothyroid', 'low thyroid', 'canine hypothyroidism', 'lymphocytic thyroiditis'],
    species: ['dog'],
    signs: [
      ['weight gain', 2],
      ['lethargy', 1],
      ['exercise intolerance', 1],
      ['bilateral symmetrical alopecia', 3],
      ['alopecia', 2],
      ['rat tail', 3],
      ['heat seeking', 2],
      ['cold intolerance', 2],
      ['dull coat', 1],
      ['seborrhoea', 2],
      ['tragic facial expression', 3],
      ['bradycardia', 2],
      ['recurrent pyoderma', 2],
      ['hypercholesterolaemia', 2],
    ],
    predispositions: [
      'middle-aged',
      'medium breed',
      'large breed',
      'golden retriever',
      'doberman',
      'cocker spaniel',
      'boxer',
      'neutered',
    ],
    ddx: {
      name: 'Hypothyroidism',
      cause_etiology:
        'Primary thyroid failure from lymphocytic thyroiditis or idiopathic follicular atrophy, leading to deficient thyroxine production; secondary and congenital forms are rare.',
      commonly_confused_with:
        'Euthyroid sick syndrome, hyperadrenocorticism, simple obesity, other endocrine alopecias and allergic skin disease with secondary pyoderma.',
      diagnosis_rule_outs:
        'Low total T4 with elevated TSH in a dog with compatible signs; free T4 by equilibrium dialysis and thyroglobulin autoantibodies help in equivocal cases. Rule out non-thyroidal illness and drugs that lower T4 (glucocorticoids, phenobarbital, sulphonamides).',
      prognosis:
        'Excellent with lifelong supplementation; activity improves within weeks and coat and skin over several months.',
      risk_factors_predispositions:
        'Middle-aged medium and large breed dogs, including Golden Retrievers, Dobermans, Cocker Spaniels, Boxers and Irish Setters; neutering may raise the risk.',
      symptoms_clinical_signs:
        'Lethargy, weight gain without increased appetite, heat seeking, bilateral symmetrical truncal alopecia, a "rat tail", dry coat, seborrhoea, recurrent pyoderma or otitis, bradycardia and mild anaemia or hypercholesterolaemia.',
    },
    treatment: {
      diagnosis_name: 'Hypothyroidism',
      treatment_plan_name: 'Thyroid hormone replacement',
      treatment_goal: 'Restore euthyroidism and reverse metabolic, dermatological and neuromuscular signs.',
      medications:
        "Levothyroxine (synthetic T4), given orally once or twice daily; dose per current formulary and the patient's weight, adjusted on post-pill T4. Treat secondary pyoderma or otitis with appropriate antimicrobials.",
      dietary_management:
        'A calorie-controlled diet until weight normalises; give levothyroxine consistently with respect to meals because food alters absorption.',
      lifestyle_modifications: 'Gradually increase exercise as energy returns to support weight loss.',
      symptom_management: 'Medicated shampoos for seborrhoea and pyoderma while the coat recovers.',
      'non-surgical_options': 'Lifelong oral supplementation is the standard and sufficient treatment.',
      possible_surgical_options: 'Surgery is not part of management; hypothyroidism is treated medically.',
      preventative_options:
        'No prevention; breeding programmes may screen for thyroglobulin autoantibodies in predisposed breeds.',
      regular_veterinary_monitoring:
        'Check T4 four to six hours after the dose four to eight weeks after starting or changing treatment, then every six to twelve months along with weight and clinical response.',
      owner_education:
        'Supplementation is lifelong; report restlessness, panting, polyuria or weight loss, which suggest overdosage, and expect the coat to take months to improve.',
    },
  },
  {
    id: 'canine-hyperadrenocorticism',
    name: 'Hyperadrenocorticism',
    aliases: ["Cushing's", "Cushing's disease", 'Cushings', 'HAC', 'hypercortisolism', 'PDH', 'ADH'],
    species: ['dog'],
    signs: [
      ['pu/pd', 2],
      ['polyuria', 2],
      ['polydipsia', 2],
      ['polyphagia', 2],
      ['pot-bellied', 3],
      ['pot belly', 3],
      ['panting', 2],
      ['bilateral symmetrical alopecia', 2],
      ['thin skin', 2],
      ['calcinosis cutis', 3],
      ['muscle wasting', 1],
      ['elevated alp', 2],
      ['hepatomegaly', 2],
      ['recurrent uti', 1],
    ],
    predispositions: ['middle-aged', 'senior', 'poodle', 'dachshund', 'boxer', 'terrier', 'small breed'],
    ddx: {
      name: 'Hyperadrenocorticism',
      cause_etiology:
        'Chronic cortisol excess, about 85% pituitary-dependent (ACTH-secreting pituitary adenoma) and the rest from a functional adrenal tumour; iatrogenic disease follows long-term glucocorticoid use.',
      commonly_confused_with:
        'Diabetes mellitus, hypothyroidism, chronic kidney disease, liver disease and the effects of exogenous glucocorticoids.',
      diagnosis_rule_outs:
        'Compatible history, signs and routine bloodwork (high ALP, stress leucogram, dilute urine), then a low-dose dexamethasone suppression test or ACTH stimulation test; urine cortisol:creatinine ratio helps rule it out. Abdominal ultrasound and endogenous ACTH differentiate pituitary from adrenal disease.',
      prognosis:
        'Fair to good for pituitary-dependent disease with medical control, with median survival of a few years; adrenal carcinoma and large pituitary tumours are more guarded.',
      risk_factors_predispositions:
        'Middle-aged to older dogs; Poodles, Dachshunds, Boxers, Boston and other terriers; adrenal tumours are more frequent in large breeds.',
      symptoms_clinical_signs:
        'Polyuria, polydipsia, polyphagia, a pot-bellied appearance, panting, muscle weakness, bilateral symmetrical alopecia, thin skin, comedones, calcinosis cutis and recurrent urinary tract infections.',
    },
    treatment: {
      diagnosis_name: 'Hyperadrenocorticism',
      treatment_plan_name: 'Control of cortisol excess',
      treatment_goal:
        'Reduce cortisol to resolve clinical signs and limit complications such as hypertension, thromboembolism and urinary tract infection, without causing hypoadrenocorticism.',
      medications:
        "Trilostane (an adrenal steroidogenesis inhibitor) given with food, starting low and titrating to effect; dose per current formulary and the patient's weight. Mitotane is an alternative in selected cases.",
      dietary_management:
        'A moderate-fat, highly digestible diet with calorie control for overweight dogs; fat restriction if hyperlipidaemia or pancreatitis is present.',
      lifestyle_modifications:
        'Allow free access to water and frequent toilet breaks until polyuria settles; moderate exercise as muscle strength returns.',
      symptom_management:
        'Treat concurrent urinary infection, hypertension and skin infection; manage proteinuria if present.',
      'non-surgical_options':
        'Medical management with trilostane is standard for pituitary-dependent disease; radiotherapy is an option for pituitary macroadenomas causing neurological signs.',
      possible_surgical_options:
        'Adrenalectomy for a functional adrenal tumour without extensive vascular invasion; hypophysectomy for pituitary-dependent disease is offered at a few specialist centres.',
      preventative_options: 'Avoid unnecessary long-term glucocorticoid use, which causes iatrogenic disease.',
      regular_veterinary_monitoring:
        'ACTH stimulation test or pre-pill cortisol with clinical assessment at about two weeks, four weeks and three months after starting or changing treatment, then every three to six months, with electrolytes each time.',
      owner_education:
        'Give trilostane with food; stop it and call if the dog is lethargic, off food, vomiting or has diarrhoea, which may mean cortisol is too low. Improvement in thirst and appetite comes in weeks, in the coat over months.',
    },
  },
  {
    id: 'canine-hypoadrenocorticism',
    name: 'Hypoadrenocorticism',
    aliases: ["Addison's", "Addison's disease", 'Addisons', 'hypoA', 'addisonian crisis', "atypical Addison's"],
    species: ['dog'],
    signs: [
      ['waxing and waning', 2],
      ['lethargy', 1],
      ['weakness', 1],
      ['vomiting', 1],
      ['diarrhoea', 1],
      ['anorexia', 1],
      ['collapse', 2],
      ['bradycardia', 2],
      ['hyperkalaemia', 3],
      ['hyponatraemia', 3],
      ['low na:k ratio', 3],
      ['absence of a stress leukogram', 3],
      ['hypoglycaemia', 2],
      ['shaking', 1],
    ],
    predispositions: [
      'young adult',
      'female',
      'standard poodle',
      'portuguese water dog',
      'bearded collie',
      'west highland white terrier',
      'nova scotia duck tolling retriever',
    ],
    ddx: {
      name: 'Hypoadrenocorticism',
      cause_etiology:
        'Immune-mediated destruction of the adrenal cortex causing deficiency of glucocorticoids and usually mineralocorticoids; iatrogenic forms follow trilostane or mitotane, and some dogs have glucocorticoid deficiency alone (atypical form).',
      commonly_confused_with:
        "Acute kidney injury, acute gastroenteritis or protein-losing enteropathy, pancreatitis, urethral obstruction and trichuriasis (pseudo-Addison's).",
      diagnosis_rule_outs:
        'ACTH stimulation test with low pre- and post-stimulation cortisol confirms it; a basal cortisol above the laboratory cut-off rules it out. Typical clues are hyperkalaemia, hyponatraemia, azotaemia and a missing stress leucogram in a sick dog.',
      prognosis:
        'Excellent with lifelong replacement once stable; an Addisonian crisis is life-threatening but usually responds to prompt treatment.',
      risk_factors_predispositions:
        'Young to middle-aged dogs, more often females; Standard Poodles, Portuguese Water Dogs, Bearded Collies, Nova Scotia Duck Tolling Retrievers and West Highland White Terriers.',
      symptoms_clinical_signs:
        'Waxing and waning lethargy, weakness, vomiting, diarrhoea, anorexia, weight loss and shaking; in crisis, collapse, hypovolaemic shock and bradycardia from hyperkalaemia.',
    },
    treatment: {
      diagnosis_name: 'Hypoadrenocorticism',
      treatment_plan_name: 'Adrenal hormone replacement',
      treatment_goal:
        'Stabilise a crisis, then replace glucocorticoids and mineralocorticoids lifelong to keep electrolytes and wellbeing normal.',
      medications:
        "Mineralocorticoid replacement with desoxycorticosterone pivalate (DOCP) injections or oral fludrocortisone, plus a low physiological dose of prednisolone; dose per current formulary and the patient's weight. In crisis, dexamethasone after the ACTH stimulation sample.",
      dietary_management:
        'A normal balanced diet; no salt supplementation is needed with adequate mineralocorticoid replacement.',
      lifestyle_modifications:
        'Plan for stressful events such as travel, boarding or surgery, when the glucocorticoid dose is increased temporarily.',
      symptom_management:
        'In crisis: aggressive intravenous isotonic fluid therapy, treatment of hyperkalaemia and hypoglycaemia, ECG monitoring and antiemetics.',
      'non-surgical_options': 'Lifelong hormone replacement is the only treatment and works well.',
      possible_surgical_options: 'Surgery is not part of management; the disease is treated by hormone replacement.',
      preventative_options:
        'No prevention for the immune-mediated form; monitor dogs on trilostane or mitotane to avoid iatrogenic disease.',
      regular_veterinary_monitoring:
        'Electrolytes about ten days and twenty-five days after each DOCP injection during dose adjustment, then every three to six months with clinical assessment.',
      owner_education:
        'Never stop medication suddenly; double the glucocorticoid as advised during stress, and seek care at once for vomiting, weakness or collapse.',
    },
  },
];
