// The agents' answers kept with a consult, listed on its note. The only way in from outside this
// folder.
export { ConsultAnswers } from './consult-answers.tsx';
