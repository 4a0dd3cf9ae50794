import type { Condition } from '../types.ts';

export const MUSCULOSKELETAL_NEURO: Condition[] = [
  {
    id: 'osteoarthritis',
    name: 'Osteoarthritis',
    aliases: ['OA', 'arthritis', 'degenerative joint disease', 'DJD', 'joint pain'],
    species: ['dog', 'cat'],
    signs: [
      ['stiffness after rest', 3],
      ['stiff', 2],
      ['lameness', 1],
      ['limping', 1],
      ['reluctance to jump', 3],
      ['difficulty rising', 2],
      ['reluctance to climb stairs', 2],
      ['reduced activity', 1],
      ['crepitus', 3],
      ['reduced range of motion', 2],
      ['joint effusion', 2],
      ['muscle atrophy', 1],
      ['not using the litter box', 1],
    ],
    predispositions: [
      'senior',
      'older',
      'large breed',
      'obese',
      'overweight',
      'hip dysplasia',
      'elbow dysplasia',
      'labrador',
      'older cat',
    ],
    ddx: {
      name: 'Osteoarthritis',
      cause_etiology:
        'Progressive degeneration of articular cartilage with subchondral bone change, osteophytes and synovial inflammation; in dogs mostly secondary to developmental disease (hip or elbow dysplasia), cruciate rupture or trauma, in cats often age-related.',
      commonly_confused_with:
        'Cranial cruciate ligament rupture, intervertebral disc disease, bone neoplasia, immune-mediated polyarthritis and soft-tissue injury.',
      diagnosis_rule_outs:
        'Orthopaedic examination (pain, crepitus, reduced range of motion, effusion) and radiographs of affected joints; owner questionnaires help in cats, where signs are subtle; arthrocentesis when inflammatory arthritis is suspected.',
      prognosis:
        'Not curable, but most animals keep a good quality of life with weight control, exercise and multimodal analgesia.',
      risk_factors_predispositions:
        'Increasing age, obesity, large and giant breeds, hip and elbow dysplasia, previous joint injury or surgery.',
      symptoms_clinical_signs:
        'Stiffness after rest, lameness that improves with gentle exercise, difficulty rising, reluctance to climb stairs or jump, reduced activity and behaviour changes; cats groom less and may toilet outside the litter box.',
    },
    treatment: {
      diagnosis_name: 'Osteoarthritis',
      treatment_plan_name: 'Multimodal osteoarthritis management',
      treatment_goal:
        'Reduce pain, maintain mobility and muscle mass, and slow progression to preserve quality of life.',
      medications:
        'NSAIDs such as meloxicam (dogs: 0.1 mg/kg PO once daily after 0.2 mg/kg on the first day), carprofen (dogs: 4 mg/kg PO once daily) or robenacoxib, or the EP4 antagonist grapiprant; anti-NGF monoclonal antibodies (bedinvetmab in dogs, frunevetmab in cats); gabapentin or amantadine as adjuncts for chronic pain; check each dose against the current formulary.',
      dietary_management:
        'Weight loss to lean body condition is the most effective single measure; joint diets rich in omega-3 fatty acids (EPA and DHA).',
      lifestyle_modifications:
        'Regular, controlled, low-impact exercise (lead walks, swimming), non-slip flooring, ramps, raised bowls, and low-sided litter trays for cats.',
      symptom_management: 'Analgesia tailored to flare-ups, warm and padded bedding, and physiotherapy.',
      'non-surgical_options':
        'Physiotherapy, hydrotherapy, therapeutic exercise, acupuncture and laser therapy as adjuncts.',
      possible_surgical_options:
        'For selected joints: total hip replacement, femoral head and neck excision, arthroscopy, or arthrodesis for end-stage joints.',
      preventative_options:
        'Keep animals lean from puppyhood, screen breeding stock for hip and elbow dysplasia, and treat joint injuries promptly.',
      regular_veterinary_monitoring:
        'Recheck every three to six months for pain scoring and weight; bloodwork periodically for patients on long-term NSAIDs.',
      owner_education:
        'Arthritis is lifelong but manageable; weight control and daily moderate exercise matter as much as drugs. Report vomiting, dark stools or reduced appetite on NSAIDs.',
    },
  },
  {
    id: 'cranial-cruciate-ligament-rupture',
    name: 'Cranial cruciate ligament rupture',
    aliases: ['CCL', 'CCLR', 'CrCL rupture', 'cruciate', 'ACL', 'torn cruciate', 'cruciate disease'],
    species: ['dog'],
    signs: [
      ['hind limb lameness', 2],
      ['non-weight-bearing', 2],
      ['toe-touching', 2],
      ['drawer sign', 3],
      ['cranial drawer', 3],
      ['positive tibial thrust', 3],
      ['stifle effusion', 3],
      ['medial buttress', 3],
      ['sitting with leg out', 3],
      ['lameness', 1],
      ['limping', 1],
      ['stifle pain', 2],
      ['meniscal click', 3],
    ],
    predispositions: [
      'large breed',
      'overweight',
      'labrador',
      'rottweiler',
      'newfoundland',
      'staffordshire bull terrier',
      'west highland white terrier',
      'neutered',
      'middle-aged',
    ],
    ddx: {
      name: 'Cranial cruciate ligament rupture',
      cause_etiology:
        'Progressive degeneration of the cranial cruciate ligament leading to partial or complete rupture, often during normal activity; acute traumatic rupture is less common. Instability causes osteoarthritis and often medial meniscal tears.',
      commonly_confused_with:
        'Medial patellar luxation, hip dysplasia, osteosarcoma of the distal femur or proximal tibia, and lumbosacral disease.',
      diagnosis_rule_outs:
        'Orthopaedic examination for cranial drawer and tibial thrust (may need sedation; partial tears may show only effusion and pain on extension); stifle radiographs show effusion and osteophytes; arthroscopy confirms and assesses the menisci.',
      prognosis:
        'Good to excellent for return to function with surgery in most dogs; osteoarthritis progresses regardless, and the other stifle ruptures in a substantial proportion of dogs.',
      risk_factors_predispositions:
        'Large breeds such as Labradors, Rottweilers and Newfoundlands, also Staffordshire Bull Terriers and West Highland White Terriers; obesity, neutering and a steep tibial plateau angle.',
      symptoms_clinical_signs:
        'Acute or chronic hind limb lameness ranging from subtle to non-weight-bearing, stifle effusion, a medial buttress, sitting with the affected leg out to the side, and a meniscal click when the meniscus is torn.',
    },
    treatment: {
      diagnosis_name: 'Cranial cruciate ligament rupture',
      treatment_plan_name: 'Stifle stabilisation and rehabilitation',
      treatment_goal: 'Restore stifle stability and pain-free function and limit the progression of osteoarthritis.',
      medications:
        "NSAIDs such as carprofen, meloxicam or robenacoxib for pain and inflammation, with opioids perioperatively and gabapentin as an adjunct; dose per current formulary and the patient's weight.",
      dietary_management: 'Weight reduction to lean body condition and omega-3 fatty acid joint support.',
      lifestyle_modifications:
        'Strict exercise restriction with short lead walks for about eight to twelve weeks after surgery, then a gradual return to activity; no off-lead running or jumping during recovery.',
      symptom_management: 'Cold therapy after surgery, analgesia, and protection of the incision.',
      'non-surgical_options':
        'Conservative management with weight loss, rest, NSAIDs, physiotherapy and possibly a stifle orthosis, mainly for small dogs or when surgery is not possible.',
      possible_surgical_options:
        'Tibial plateau levelling osteotomy (TPLO), tibial tuberosity advancement (TTA) or lateral fabellotibial suture, with inspection and treatment of the medial meniscus.',
      preventative_options: 'Keep dogs lean and fit; no proven method prevents rupture of the other stifle.',
      regular_veterinary_monitoring:
        'Recheck at two weeks for the wound, radiographs at about eight weeks to confirm osteotomy healing, and osteoarthritis reviews after that.',
      owner_education:
        'Exercise restriction is essential for healing; rehabilitation exercises speed recovery; watch for sudden worsening, which may mean a late meniscal tear.',
    },
  },
  {
    id: 'intervertebral-disc-disease',
    name: 'Intervertebral disc disease',
    aliases: ['IVDD', 'IVDE', 'slipped disc', 'disc prolapse', 'disc herniation', 'Hansen type I', 'Hansen type II'],
    species: ['dog'],
    signs: [
      ['back pain', 2],
      ['neck pain', 2],
      ['spinal pain', 2],
      ['hunched', 1],
      ['reluctance to move', 1],
      ['crying out when picked up', 2],
      ['hind limb ataxia', 3],
      ['paraparesis', 3],
      ['paraplegia', 3],
      ['knuckling', 3],
      ['wobbly', 2],
      ['loss of deep pain', 3],
      ['urinary retention', 2],
      ['schiff-sherrington', 3],
    ],
    predispositions: [
      'dachshund',
      'chondrodystrophic',
      'french bulldog',
      'beagle',
      'shih tzu',
      'pekingese',
      'cocker spaniel',
      'middle-aged',
    ],
    ddx: {
      name: 'Intervertebral disc disease',
      cause_etiology:
        'Degeneration of intervertebral discs leading to extrusion of nucleus pulposus (Hansen type I, acute, chondrodystrophic breeds) or protrusion of the annulus (Hansen type II, chronic, older large breeds), compressing the spinal cord or nerve roots.',
      commonly_confused_with:
        'Fibrocartilaginous embolism, discospondylitis, spinal neoplasia, meningomyelitis, degenerative myelopathy and orthopaedic or abdominal pain.',
      diagnosis_rule_outs:
        'A neurological examination localises the lesion and grades severity (pain, ambulatory or not, deep pain perception); MRI or CT (with or without myelography) confirms the site and side of compression; radiographs only exclude other conditions.',
      prognosis:
        'Good with surgery in dogs that keep deep pain perception; guarded when deep pain is lost, especially for more than a day or two; post-operative ascending myelomalacia is a rare fatal complication.',
      risk_factors_predispositions:
        'Chondrodystrophic breeds (Dachshunds, French Bulldogs, Beagles, Shih Tzus, Pekingese) from three to seven years of age for type I; older large breeds for type II; obesity.',
      symptoms_clinical_signs:
        'Spinal pain (hunched posture, reluctance to move, crying out), then ataxia, knuckling, paresis or paralysis of the limbs caudal to the lesion, and urinary retention or incontinence in severe cases.',
    },
    treatment: {
      diagnosis_name: 'Intervertebral disc disease',
      treatment_plan_name: 'Spinal decompression or strict conservative management',
      treatment_goal:
        'Relieve spinal cord compression and pain, regain ambulation and continence, and prevent recurrence.',
      medications:
        "Analgesia with an NSAID (or, never together with it, an anti-inflammatory course of a glucocorticoid), opioids, gabapentin and muscle relaxants such as methocarbamol; high-dose methylprednisolone is no longer recommended; dose per current formulary and the patient's weight.",
      dietary_management:
        'Weight loss to a lean body condition; adequate fibre and hydration in recumbent dogs to ease defecation.',
      lifestyle_modifications:
        'Strict cage or crate rest for four to six weeks with conservative management; afterwards use a harness instead of a collar, ramps, and no jumping on or off furniture.',
      symptom_management:
        'Bladder expression or catheterisation in dogs with retention, padded bedding and turning to prevent pressure sores in recumbent dogs.',
      'non-surgical_options':
        'Conservative management with strict rest and analgesia for dogs with pain only or mild deficits, and physiotherapy and hydrotherapy for rehabilitation.',
      possible_surgical_options:
        'Hemilaminectomy (thoracolumbar) or ventral slot (cervical) decompression, urgently for non-ambulatory dogs and for those without deep pain perception; prophylactic fenestration is sometimes added.',
      preventative_options: 'Keep chondrodystrophic dogs lean and fit, limit jumping from heights, and use a harness.',
      regular_veterinary_monitoring:
        'Serial neurological examinations during the first days; rechecks every two to four weeks during recovery, with urine checks for infection in dogs with bladder dysfunction.',
      owner_education:
        'Deterioration in walking or loss of the ability to urinate is an emergency; recurrence at another disc is possible; rehabilitation takes weeks to months.',
    },
  },
  {
    id: 'idiopathic-epilepsy',
    name: 'Idiopathic epilepsy',
    aliases: ['epilepsy', 'IE', 'seizures', 'fits', 'seizure disorder', 'primary epilepsy'],
    species: ['dog'],
    signs: [
      ['seizure', 3],
      ['seizures', 3],
      ['fitting', 3],
      ['convulsions', 3],
      ['generalised tonic-clonic', 3],
      ['paddling', 2],
      ['collapse', 1],
      ['loss of consciousness', 2],
      ['hypersalivation', 1],
      ['urination during episode', 2],
      ['post-ictal', 3],
      ['disorientation after episode', 2],
      ['cluster seizures', 3],
      ['normal between episodes', 2],
    ],
    predispositions: [
      'young adult',
      'six months to six years',
      'border collie',
      'australian shepherd',
      'labrador',
      'golden retriever',
      'beagle',
      'german shepherd',
      'belgian shepherd',
    ],
    ddx: {
      name: 'Idiopathic epilepsy',
      cause_etiology:
        'Recurrent unprovoked epileptic seizures without an identifiable structural brain lesion, presumed to have a genetic basis.',
      commonly_confused_with:
        'Reactive seizures (hypoglycaemia, hepatic encephalopathy, toxins, electrolyte disorders), structural epilepsy (tumour, inflammation), syncope, paroxysmal movement disorders and vestibular episodes.',
      diagnosis_rule_outs:
        'A diagnosis of exclusion: onset at six months to six years, normal interictal examination and normal haematology, biochemistry (with bile acids), and urinalysis; MRI and cerebrospinal fluid analysis, especially outside the typical age range or with neurological deficits.',
      prognosis:
        'Generally fair to good: many dogs achieve acceptable seizure control with a normal quality of life; cluster seizures, status epilepticus and early onset worsen the outlook.',
      risk_factors_predispositions:
        'Onset between six months and six years; Border Collies, Australian Shepherds, Labradors, Golden Retrievers, Beagles, German and Belgian Shepherds and other breeds with a familial tendency.',
      symptoms_clinical_signs:
        'Episodes of generalised tonic-clonic activity with loss of consciousness, paddling, salivation, urination or defecation, often followed by post-ictal disorientation, blindness or restlessness; focal seizures with twitching may also occur. The dog is normal between episodes.',
    },
    treatment: {
      diagnosis_name: 'Idiopathic epilepsy',
      treatment_plan_name: 'Antiseizure drug therapy',
      treatment_goal:
        'Reduce seizure frequency and severity and prevent cluster seizures and status epilepticus, with acceptable side effects.',
      medications:
        "Antiseizure drugs such as phenobarbital, imepitoin or potassium bromide as first-line, with levetiracetam, zonisamide or others as add-ons; rectal or intranasal diazepam or midazolam for emergencies; dose per current formulary and the patient's weight and adjusted to serum concentrations.",
      dietary_management:
        'A medium-chain triglyceride-enriched diet can reduce seizure frequency in some dogs; keep salt intake constant with potassium bromide.',
      lifestyle_modifications:
        'Regular routine, consistent medication times, and keeping the dog away from water and stairs during a seizure risk period.',
      symptom_management:
        'During a seizure, keep the dog away from hazards and do not put hands near the mouth; emergency drugs for seizures lasting more than a few minutes or clusters.',
      'non-surgical_options':
        'Lifelong drug therapy; starting treatment is advised after two or more seizures within six months, any cluster, status epilepticus or severe post-ictal signs.',
      possible_surgical_options:
        'Surgery is not part of management; idiopathic epilepsy has no structural lesion to remove.',
      preventative_options: 'No prevention; avoid breeding from affected dogs.',
      regular_veterinary_monitoring:
        'Serum drug concentrations and liver values a few weeks after starting or changing phenobarbital or bromide, then every six to twelve months; review the seizure diary at each visit.',
      owner_education:
        'Keep a seizure diary; never stop medication suddenly; seizures lasting over five minutes or more than one in a day need emergency care.',
    },
  },
];
