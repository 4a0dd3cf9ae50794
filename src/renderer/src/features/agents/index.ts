// The clinical agents' panels: differentials, treatment plans, medications. The only way in from
// outside this folder.
export { AgentPanel } from './agent-panel.tsx';
