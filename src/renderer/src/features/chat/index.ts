// The conversation about a consult, shown under its note: this computer's and the clinic's. The
// only way in from outside this folder.
export { ConsultChat } from './consult-chat.tsx';
