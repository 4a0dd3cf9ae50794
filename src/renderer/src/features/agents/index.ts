// The clinical agents' panels: differentials, treatment plans, medications. The only way in from
// outside this folder.
export { AgentPanel } from './agent-panel.tsx';
// What the panels forget when the vet signs out or a consult is deleted (connect-stores.ts).
export { agentsConsultRemoved, agentsSessionChanged } from './agents-store.ts';
