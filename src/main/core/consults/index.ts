// The consults as the window uses them: the one copy and the outbox, each consult's stage,
// access through the gate, the recorder, commands, notes and drafts, answers, conversations, the
// trail, search and retention, and the IPC calls about a consult.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { ConsultAccessView, NOT_THEIRS } from './access.ts';
export { announceConsults } from './announcements.ts';
export { AnswerStore } from './answer-store.ts';
export { ConsultAnswers } from './answers.ts';
export { ConsultCache } from './cache.ts';
export { consultCalls } from './calls.ts';
export { ConsultCommands } from './commands.ts';
export { ConversationStore } from './conversation-store.ts';
export { ConsultConversation, Conversation } from './conversation.ts';
export { DraftStore } from './drafts.ts';
export { ConsultGate, senderOf } from './gate.ts';
export { notePdf } from './note-pdf.ts';
export { ConsultNotes } from './notes.ts';
export { ConsultOutbox } from './outbox.ts';
export { recorderCalls } from './recorder-calls.ts';
export { Recorder } from './recorder.ts';
export { AccountRetention } from './retention.ts';
export { ConsultSearch } from './search.ts';
export { ConsultTrail, TrailError } from './trail.ts';
export { Visits } from './visits.ts';
