// The clinical agents (differentials, treatment plans, medications) and the clinic's
// organization at the service (notification e-mail, webhook), each asked with the vet's sign-in.
// The only way in from outside this folder (test/unit/layers.test.ts checks it).
export { clinicalCalls } from './calls.ts';
export { Clinical } from './clinical.ts';
