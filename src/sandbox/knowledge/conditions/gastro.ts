// The knowledge base's gastrointestinal conditions. Long because it is data: one record per
// condition (its signs, predispositions, differential-diagnosis text and treatment plan), read by
// the agents and never by a person in one sitting; splitting them over files would only scatter them.
import type { Condition } from '../types.ts';

export const GASTRO: Condition[] = [
  {
    id: 'acute-gastroenteritis',
    name: 'Acute gastroenteritis',
    aliases: ['dietary indiscretion', 'garbage gut', 'AGE', 'acute diarrhoea', 'gastro', 'upset stomach'],
    species: ['dog', 'cat'],
    signs: [
      ['vomiting', 1],
      ['v+', 1],
      ['diarrhoea', 1],
      ['diarrhea', 1],
      ['d+', 1],
      ['v+d+', 2],
      ['scavenging', 3],
      ['ate rubbish', 3],
      ['got into the bin', 3],
      ['inappetence', 1],
      ['borborygmi', 2],
      ['flatulence', 1],
      ['mild abdominal discomfort', 1],
    ],
    predispositions: ['young', 'puppy', 'labrador', 'scavenger'],
    ddx: {
      name: 'Acute gastroenteritis',
      cause_etiology:
        'Acute inflammation of the stomach and intestines, most often from dietary indiscretion or a sudden diet change; infectious agents (parasites, viruses, bacteria) and toxins are other causes.',
      commonly_confused_with:
        'Gastrointestinal foreign body, pancreatitis, parvovirus infection, hypoadrenocorticism, acute haemorrhagic diarrhoea syndrome and toxin ingestion.',
      diagnosis_rule_outs:
        'History and examination in a bright, stable patient; faecal parasitology. Bloodwork, abdominal imaging, parvovirus antigen testing or pancreatic lipase are indicated when signs are severe, persistent or accompanied by abdominal pain or lethargy.',
      prognosis: 'Excellent; most uncomplicated cases resolve within a few days with supportive care.',
      risk_factors_predispositions:
        'Young, scavenging dogs, sudden diet changes, unsupervised access to rubbish or carcasses, and incomplete parasite control.',
      symptoms_clinical_signs:
        'Acute vomiting and/or diarrhoea, reduced appetite, borborygmi, flatulence and mild abdominal discomfort in an otherwise bright patient.',
    },
    treatment: {
      diagnosis_name: 'Acute gastroenteritis',
      treatment_plan_name: 'Supportive care for acute gastroenteritis',
      treatment_goal:
        'Resolve vomiting and diarrhoea, keep the patient hydrated and spot red flags that need further investigation.',
      medications:
        'Antiemetics such as maropitant for vomiting (1 mg/kg SC once daily in dogs and cats), and probiotics or kaolin-based adsorbents for diarrhoea; routine antibiotics are not indicated without signs of sepsis; check each dose against the current formulary.',
      dietary_management:
        'Small, frequent meals of a bland, highly digestible low-fat diet (prescription gastrointestinal diet or boiled chicken and rice) for a few days, then a gradual return to the usual food.',
      lifestyle_modifications:
        'Prevent scavenging: supervise walks, secure bins, and consider a basket muzzle for persistent scavengers.',
      symptom_management:
        'Oral rehydration or subcutaneous fluids for mild dehydration; intravenous fluids when dehydration is moderate or vomiting persistent.',
      'non-surgical_options':
        'Outpatient supportive care is usually enough; hospitalise if the patient is dehydrated, painful or not improving.',
      possible_surgical_options:
        'Surgery is not part of managing gastroenteritis; exploratory laparotomy applies only if imaging reveals an obstruction.',
      preventative_options:
        'Routine deworming, gradual diet transitions and prevention of access to rubbish and toxins.',
      regular_veterinary_monitoring: 'Recheck if signs last more than two to three days or if red flags appear.',
      owner_education:
        'Return at once for repeated vomiting, blood in vomit or stool, abdominal pain, lethargy or inability to keep water down.',
    },
  },
  {
    id: 'pancreatitis',
    name: 'Pancreatitis',
    aliases: ['acute pancreatitis', 'chronic pancreatitis', 'pancreatic inflammation'],
    species: ['dog', 'cat'],
    signs: [
      ['vomiting', 1],
      ['anorexia', 1],
      ['cranial abdominal pain', 3],
      ['abdominal pain', 2],
      ['praying position', 3],
      ['hunched', 2],
      ['lethargy', 1],
      ['diarrhoea', 1],
      ['fever', 1],
      ['dehydration', 1],
      ['elevated cpli', 3],
      ['positive snap cpl', 3],
      ['fatty meal', 3],
      ['icterus', 1],
    ],
    predispositions: [
      'middle-aged',
      'obese',
      'miniature schnauzer',
      'cocker spaniel',
      'yorkshire terrier',
      'high-fat meal',
      'hyperlipidaemia',
    ],
    ddx: {
      name: 'Pancreatitis',
      cause_etiology:
        'Inflammation of the exocrine pancreas from premature activation of digestive enzymes; usually idiopathic, with dietary fat, hypertriglyceridaemia, some drugs and in cats concurrent cholangitis and enteropathy (triaditis) as contributors.',
      commonly_confused_with:
        'Gastrointestinal foreign body, acute gastroenteritis, hepatobiliary disease, peritonitis, hypoadrenocorticism and in cats inflammatory bowel disease or lymphoma.',
      diagnosis_rule_outs:
        'Compatible signs plus a raised specific pancreatic lipase (cPLI/fPLI or SNAP test) and abdominal ultrasound showing a hypoechoic, enlarged pancreas with hyperechoic surrounding fat; exclude obstruction with imaging.',
      prognosis:
        'Good for mild acute disease; guarded to poor for severe necrotising pancreatitis with systemic complications. Chronic pancreatitis can lead to diabetes mellitus or exocrine pancreatic insufficiency.',
      risk_factors_predispositions:
        'Dogs: obesity, high-fat meals or dietary indiscretion, hypertriglyceridaemia (Miniature Schnauzers), hyperadrenocorticism, diabetes and certain drugs. Cats: often concurrent inflammatory bowel or liver disease.',
      symptoms_clinical_signs:
        'Dogs: vomiting, anorexia, cranial abdominal pain (praying position), diarrhoea, fever and dehydration. Cats: vague lethargy, anorexia and weight loss, with vomiting or pain less consistent.',
    },
    treatment: {
      diagnosis_name: 'Pancreatitis',
      treatment_plan_name: 'Supportive management of pancreatitis',
      treatment_goal:
        'Restore perfusion and hydration, control pain and nausea, get the patient eating early and prevent recurrence.',
      medications:
        'Multimodal opioid analgesia (buprenorphine 0.01-0.02 mg/kg IV or IM every 6-8 hours, methadone or fentanyl), antiemetics such as maropitant (1 mg/kg SC or IV once daily), gastroprotectants if indicated, and fuzapladib where licensed in dogs; check each dose against the current formulary.',
      dietary_management:
        'Early enteral nutrition; in dogs a low-fat highly digestible diet, in cats a highly digestible diet (fat restriction is less important); feeding tubes for prolonged anorexia, especially in cats.',
      lifestyle_modifications:
        'Long-term weight control and strict avoidance of high-fat treats and table scraps in dogs.',
      symptom_management:
        'Intravenous crystalloid fluids with electrolyte correction, analgesia, antiemetics and appetite stimulants.',
      'non-surgical_options':
        'Hospitalisation with fluid therapy and nutritional support is the mainstay; mild cases may be managed as outpatients.',
      possible_surgical_options:
        'Rarely needed; surgery is reserved for pancreatic abscess, infected necrosis or extrahepatic biliary obstruction.',
      preventative_options:
        'A low-fat diet, weight management and control of hypertriglyceridaemia in predisposed dogs.',
      regular_veterinary_monitoring:
        'Monitor hydration, electrolytes, pain, glucose and appetite in hospital; recheck pancreatic lipase and triglycerides after recovery and periodically in recurrent cases.',
      owner_education:
        'Recurrence is possible, so avoid fatty foods; watch for signs of diabetes (thirst, weight loss) or maldigestion later on.',
    },
  },
  {
    id: 'gastric-dilatation-volvulus',
    name: 'Gastric dilatation-volvulus',
    aliases: ['GDV', 'bloat', 'gastric torsion', 'twisted stomach', 'GDV syndrome'],
    species: ['dog'],
    signs: [
      ['unproductive retching', 3],
      ['non-productive retching', 3],
      ['retching', 2],
      ['distended abdomen', 3],
      ['tympanic abdomen', 3],
      ['bloated abdomen', 3],
      ['hypersalivation', 2],
      ['restlessness', 2],
      ['abdominal pain', 2],
      ['collapse', 2],
      ['pale mucous membranes', 2],
      ['tachycardia', 1],
      ['double bubble', 3],
    ],
    predispositions: [
      'large breed',
      'giant breed',
      'deep-chested',
      'great dane',
      'german shepherd',
      'standard poodle',
      'weimaraner',
      'irish setter',
      'older',
    ],
    ddx: {
      name: 'Gastric dilatation-volvulus',
      cause_etiology:
        'Gas distension of the stomach with rotation about its axis, obstructing outflow and venous return; causes shock, gastric wall necrosis and sometimes splenic torsion. The trigger is multifactorial and poorly understood.',
      commonly_confused_with:
        'Simple gastric dilatation (food bloat) without volvulus, mesenteric torsion, splenic torsion, haemoabdomen and intestinal obstruction.',
      diagnosis_rule_outs:
        'Right lateral abdominal radiograph showing a compartmentalised, gas-filled stomach with a pylorus displaced dorsally and cranially ("double bubble"); lactate, ECG and coagulation guide prognosis and management.',
      prognosis:
        'Fair to good with prompt surgery (survival around 80-90% in many series); worse with gastric necrosis, splenectomy or partial gastrectomy, prolonged delay, high lactate that fails to fall, or arrhythmias.',
      risk_factors_predispositions:
        'Large and giant deep-chested breeds (Great Dane, German Shepherd, Standard Poodle, Weimaraner, Setters), increasing age, a first-degree relative with GDV, one large meal a day, eating fast and an anxious temperament.',
      symptoms_clinical_signs:
        'Sudden restlessness, unproductive retching, hypersalivation, a progressively distended and tympanic abdomen, then weakness, pale mucous membranes, tachycardia, weak pulses and collapse.',
    },
    treatment: {
      diagnosis_name: 'Gastric dilatation-volvulus',
      treatment_plan_name: 'Emergency stabilisation, decompression and gastropexy',
      treatment_goal:
        'Treat shock, decompress and reposition the stomach, remove non-viable tissue and prevent recurrence with gastropexy.',
      medications:
        "Opioid analgesia, antiarrhythmics such as lidocaine for ventricular arrhythmias, perioperative antibiotics where indicated and antiemetics or gastroprotectants postoperatively; dose per current formulary and the patient's weight.",
      dietary_management:
        'After surgery, small bland meals, then several small meals a day rather than one large meal; slow-feeder bowls for fast eaters.',
      lifestyle_modifications:
        'Avoid vigorous exercise for an hour or two around meals and reduce stress at feeding times.',
      symptom_management:
        'Large-bore intravenous access with aggressive fluid resuscitation, gastric decompression by trocarisation or orogastric tube, and ECG monitoring for arrhythmias for days after surgery.',
      'non-surgical_options':
        'Decompression alone is only a stabilising step for volvulus; simple dilatation without volvulus may be managed by decompression and monitoring.',
      possible_surgical_options:
        'Emergency laparotomy with gastric repositioning, assessment of gastric and splenic viability, partial gastrectomy or splenectomy as needed, and incisional or belt-loop right-sided gastropexy; prophylactic gastropexy (including laparoscopic) in at-risk breeds.',
      preventative_options:
        'Prophylactic gastropexy for high-risk breeds, often at neutering; several small meals a day and no breeding from affected lines.',
      regular_veterinary_monitoring:
        'Intensive care with ECG, lactate, electrolytes and blood pressure for two to three days after surgery; suture removal and recheck at ten to fourteen days.',
      owner_education:
        'GDV is an emergency: go straight to a clinic if a large dog retches without producing anything or its belly swells; gastropexy prevents torsion but not all bloating.',
    },
  },
  {
    id: 'gastrointestinal-foreign-body',
    name: 'Gastrointestinal foreign body',
    aliases: ['GIFB', 'foreign body', 'FB', 'intestinal obstruction', 'linear foreign body', 'bowel obstruction'],
    species: ['dog', 'cat'],
    signs: [
      ['vomiting', 1],
      ['persistent vomiting', 2],
      ['projectile vomiting', 2],
      ['anorexia', 1],
      ['abdominal pain', 2],
      ['ate a toy', 3],
      ['swallowed a sock', 3],
      ['string under the tongue', 3],
      ['palpable abdominal mass', 2],
      ['plication', 3],
      ['lethargy', 1],
      ['tenesmus', 1],
      ['dehydration', 1],
    ],
    predispositions: ['young', 'puppy', 'kitten', 'labrador', 'chewer', 'scavenger'],
    ddx: {
      name: 'Gastrointestinal foreign body',
      cause_etiology:
        'Ingested objects (toys, socks, corn cobs, bones, fruit stones; string and thread in cats) that cause partial or complete obstruction of the stomach or intestine, with risk of ischaemia and perforation; linear foreign bodies cause plication and mesenteric laceration.',
      commonly_confused_with:
        'Acute gastroenteritis, pancreatitis, intussusception, parvovirus infection and gastrointestinal neoplasia.',
      diagnosis_rule_outs:
        'History of ingestion, abdominal palpation, examination under the tongue in cats, then abdominal radiographs (radiopaque objects, gas-distended loops, plication) and ultrasound; contrast studies in unclear cases.',
      prognosis:
        'Good when treated before perforation; guarded with septic peritonitis, extensive resection or linear foreign bodies with perforations.',
      risk_factors_predispositions:
        'Young dogs and cats, indiscriminate chewers, Labradors and other scavenging breeds, and cats playing with string, thread or tinsel.',
      symptoms_clinical_signs:
        'Persistent vomiting (often after eating or drinking), anorexia, lethargy, abdominal pain, dehydration and reduced or absent faeces; partial obstructions give intermittent signs.',
    },
    treatment: {
      diagnosis_name: 'Gastrointestinal foreign body',
      treatment_plan_name: 'Foreign body removal',
      treatment_goal:
        'Remove the object, restore intestinal continuity and viability, and correct fluid and electrolyte derangements.',
      medications:
        "Perioperative opioid analgesia, antiemetics such as maropitant and gastroprotectants; antibiotics if there is perforation or compromised bowel; dose per current formulary and the patient's weight.",
      dietary_management:
        'Early feeding of small, frequent meals of a highly digestible diet after surgery, usually within a day.',
      lifestyle_modifications:
        'Remove access to chewable toys, socks and string; supervise chewing and choose robust toys.',
      symptom_management:
        'Intravenous fluids to correct dehydration and electrolyte or acid-base disturbances (hypochloraemic metabolic alkalosis with gastric or proximal obstruction).',
      'non-surgical_options':
        'Induced emesis for recently swallowed, smooth, non-sharp objects; endoscopic retrieval from the oesophagus or stomach; monitoring with serial radiographs for small objects likely to pass.',
      possible_surgical_options:
        'Exploratory laparotomy with gastrotomy, enterotomy, or intestinal resection and anastomosis for devitalised bowel.',
      preventative_options:
        'Supervision, secure storage of small objects and string, appropriate chew toys and training a "drop it" command.',
      regular_veterinary_monitoring:
        'Close monitoring for three to five days after enterotomy or anastomosis for dehiscence (fever, pain, lethargy, vomiting); suture removal at ten to fourteen days.',
      owner_education:
        'Never pull string protruding from the mouth or anus; repeat offenders are common, so prevention matters.',
    },
  },
  {
    id: 'chronic-enteropathy',
    name: 'Inflammatory bowel disease',
    aliases: [
      'IBD',
      'chronic enteropathy',
      'CE',
      'food-responsive enteropathy',
      'FRE',
      'immunosuppressant-responsive enteropathy',
      'lymphoplasmacytic enteritis',
    ],
    species: ['dog', 'cat'],
    signs: [
      ['chronic diarrhoea', 3],
      ['chronic diarrhea', 3],
      ['chronic vomiting', 3],
      ['intermittent vomiting', 2],
      ['weight loss', 1],
      ['borborygmi', 2],
      ['flatulence', 1],
      ['variable appetite', 1],
      ['hypoalbuminaemia', 2],
      ['low cobalamin', 2],
      ['thickened intestinal loops', 3],
      ['mucoid faeces', 2],
      ['d+', 1],
      ['v+', 1],
    ],
    predispositions: [
      'middle-aged',
      'german shepherd',
      'boxer',
      'yorkshire terrier',
      'soft-coated wheaten terrier',
      'older cat',
    ],
    ddx: {
      name: 'Inflammatory bowel disease',
      cause_etiology:
        'Chronic intestinal inflammation from a dysregulated mucosal immune response to dietary and microbial antigens in genetically susceptible animals; classified by treatment response as food-, antibiotic-, immunosuppressant-responsive or non-responsive enteropathy.',
      commonly_confused_with:
        'Alimentary small cell lymphoma (especially in cats), exocrine pancreatic insufficiency, parasitism (Giardia), hyperthyroidism, hypoadrenocorticism and chronic pancreatitis.',
      diagnosis_rule_outs:
        'Exclude other causes with faecal testing and deworming, bloodwork, cobalamin and folate, TLI, T4 in cats, basal cortisol in dogs, and abdominal ultrasound; a strict diet trial comes before biopsies, which confirm inflammation and separate it from lymphoma.',
      prognosis:
        'Good for food-responsive disease; fair for immunosuppressant-responsive disease, which often needs long-term therapy. Severe hypoalbuminaemia (protein-losing enteropathy) is guarded.',
      risk_factors_predispositions:
        'Middle-aged animals; German Shepherds, Boxers (granulomatous colitis), Yorkshire Terriers and Soft-coated Wheaten Terriers (protein-losing enteropathy) and Shar Peis.',
      symptoms_clinical_signs:
        'Chronic or intermittent vomiting and/or diarrhoea (small or large bowel), weight loss, variable appetite, borborygmi and flatulence; ascites or oedema with protein loss.',
    },
    treatment: {
      diagnosis_name: 'Inflammatory bowel disease',
      treatment_plan_name: 'Stepwise management of chronic enteropathy',
      treatment_goal:
        'Achieve remission of gastrointestinal signs, restore body weight and albumin, and use the least immunosuppression that controls the disease.',
      medications:
        "Cobalamin supplementation when low; immunosuppressants such as prednisolone or budesonide, with chlorambucil or ciclosporin added in refractory cases; antibiotics only after diet and when justified; dose per current formulary and the patient's weight.",
      dietary_management:
        'A strict two- to three-week trial of a hydrolysed or novel-protein diet is the first step; a low-fat diet for dogs with protein-losing enteropathy; add soluble fibre for colitis.',
      lifestyle_modifications:
        'No treats, chews or table food outside the diet during trials; keep diet changes gradual.',
      symptom_management:
        'Antiemetics for vomiting, probiotics and fibre for diarrhoea, and antithrombotics in dogs with protein-losing enteropathy.',
      'non-surgical_options':
        'Diet trial, cobalamin, then immunosuppression; endoscopic biopsies for diagnosis when the diet fails.',
      possible_surgical_options:
        'Surgery is not a treatment for inflammatory bowel disease; laparotomy is used only to obtain full-thickness biopsies when endoscopy is not suitable.',
      preventative_options: 'No prevention is known; consistent diet and avoiding dietary indiscretion reduce flares.',
      regular_veterinary_monitoring:
        'Recheck weight, faecal score, albumin and cobalamin two to four weeks after each change, then every few months while tapering immunosuppression.',
      owner_education:
        'This is a chronic, manageable disease with flare-ups; keep a faecal and weight diary, and stick strictly to the diet.',
    },
  },
  {
    id: 'feline-hepatic-lipidosis',
    name: 'Hepatic lipidosis',
    aliases: ['fatty liver', 'feline hepatic lipidosis', 'FHL', 'fatty liver syndrome'],
    species: ['cat'],
    signs: [
      ['anorexia', 1],
      ['not eating for days', 3],
      ['rapid weight loss', 2],
      ['icterus', 3],
      ['jaundice', 3],
      ['yellow gums', 3],
      ['hepatomegaly', 2],
      ['obese cat', 2],
      ['vomiting', 1],
      ['hypersalivation', 1],
      ['lethargy', 1],
      ['elevated alp', 2],
      ['muscle wasting', 1],
    ],
    predispositions: ['obese', 'overweight', 'middle-aged', 'indoor cat', 'recent stress'],
    ddx: {
      name: 'Hepatic lipidosis',
      cause_etiology:
        'Accumulation of triglyceride in hepatocytes when a cat, often obese, stops eating and mobilises peripheral fat faster than the liver can process it, leading to intrahepatic cholestasis and liver failure; it is usually secondary to another illness or a stressful event.',
      commonly_confused_with:
        'Cholangitis, pancreatitis, hepatic lymphoma, extrahepatic biliary obstruction and haemolytic anaemia causing pre-hepatic icterus.',
      diagnosis_rule_outs:
        'History of anorexia with icterus, raised bilirubin and ALP with a relatively normal GGT, and a diffusely hyperechoic enlarged liver on ultrasound; fine-needle aspirate cytology confirms it. Look for the primary disease.',
      prognosis:
        'Good (most cats recover) with early, aggressive nutritional support for several weeks; poorer if the underlying disease is serious or treatment is delayed.',
      risk_factors_predispositions:
        'Obese middle-aged cats; any cause of anorexia, including stressful changes at home, boarding, diet changes and concurrent pancreatitis, enteropathy or diabetes.',
      symptoms_clinical_signs:
        'Anorexia for several days, rapid weight loss with muscle wasting, lethargy, vomiting, hypersalivation, jaundice and hepatomegaly; hepatic encephalopathy in severe cases.',
    },
    treatment: {
      diagnosis_name: 'Hepatic lipidosis',
      treatment_plan_name: 'Assisted enteral nutrition for hepatic lipidosis',
      treatment_goal:
        'Reverse the negative energy balance with complete enteral nutrition, correct metabolic derangements and treat the underlying cause.',
      medications:
        "Antiemetics such as maropitant, vitamin K1 before tube placement if coagulopathic, potassium and phosphate supplementation, cobalamin, and supportive hepatoprotectants such as SAMe and L-carnitine; dose per current formulary and the patient's weight.",
      dietary_management:
        'A high-protein, calorie-dense recovery diet through a feeding tube (naso-oesophageal initially, then oesophagostomy), starting at a fraction of resting energy requirement and increasing over several days to limit refeeding syndrome.',
      lifestyle_modifications:
        'A calm, low-stress environment at home during recovery; gradual, supervised weight loss later for obese cats.',
      symptom_management:
        'Intravenous fluids with close monitoring of potassium, phosphate and glucose for refeeding syndrome; antiemetics and analgesia.',
      'non-surgical_options':
        'Tube feeding at home for several weeks until the cat eats enough on its own; appetite stimulants are an adjunct, not a substitute for tube feeding.',
      possible_surgical_options:
        'Not usually surgical; placement of an oesophagostomy tube under brief anaesthesia is the only procedure commonly needed.',
      preventative_options:
        'Keep cats lean, change diets gradually and seek care for any cat, especially an overweight one, that stops eating for more than a day or two.',
      regular_veterinary_monitoring:
        'Electrolytes daily early in refeeding, then bilirubin, liver enzymes and weight every one to two weeks until the cat eats voluntarily and the tube is removed.',
      owner_education:
        'Recovery takes weeks; teach tube feeding and stoma care, and explain that forcing food by mouth can cause food aversion.',
    },
  },
];
