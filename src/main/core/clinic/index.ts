// The clinic's consults from the service that this computer did not record: the list read with
// the account's own sign-in, a note kept once read, a conversation about it, and what this
// computer recorded (never listed as from elsewhere).
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { clinicCalls } from './calls.ts';
export { ClinicConsults } from './clinic-consults.ts';
export { ClinicConversation } from './clinic-conversation.ts';
export { RecordedHere } from './recorded-here.ts';
