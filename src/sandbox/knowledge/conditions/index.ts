import type { Condition } from '../types.ts';
import { CARDIO_RESPIRATORY_INFECTIOUS } from './cardio-respiratory-infectious.ts';
import { ENDOCRINE } from './endocrine.ts';
import { GASTRO } from './gastro.ts';
import { MUSCULOSKELETAL_NEURO } from './musculoskeletal-neuro.ts';
import { OTHER } from './other.ts';
import { SKIN_EAR_EYE } from './skin-ear-eye.ts';
import { URINARY } from './urinary.ts';

/** Every condition the sandbox's agents can answer about, grouped by body system. */
export const CONDITIONS: Condition[] = [
  ...ENDOCRINE,
  ...URINARY,
  ...GASTRO,
  ...SKIN_EAR_EYE,
  ...MUSCULOSKELETAL_NEURO,
  ...CARDIO_RESPIRATORY_INFECTIOUS,
  ...OTHER,
];
