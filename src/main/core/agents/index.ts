// The clinical agents (differentials, treatment plans, medications) and the clinic's
// organization at the service (notification e-mail, webhook), each asked with the vet's sign-in.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { Agents } from './agents.ts';
export { agentCalls } from './calls.ts';
export { Organization } from './organization.ts';
