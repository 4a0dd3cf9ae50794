// What the consults' parts are given by AppCore: the engine's stores and the other parts. One
// declaration, each part taking what it uses of it.
import type { User } from '../../../shared/service/index.ts';
import type { ConsultGate } from './gate.ts';
import type { DraftStore } from './drafts.ts';
import type { Pipeline } from '../jobs/index.ts';
import type { Logger, Emit } from '../platform/index.ts';
import type { RecordingStore } from '../recordings/index.ts';
import type { SettingsStore } from '../settings/index.ts';
import type { ConsultAccessView } from './access.ts';
import type { AnswerStore } from './answer-store.ts';
import type { ConsultCache } from './cache.ts';
import type { ConversationStore } from './conversation-store.ts';
import type { ConsultOutbox } from './outbox.ts';
import type { ConsultTrail } from './trail.ts';
import type { Visits } from './visits.ts';

export interface ConsultParts {
  settings: SettingsStore;
  recordings: RecordingStore;
  pipeline: Pipeline;
  drafts: DraftStore;
  /** The agents' answers kept with each consult. */
  answers: AnswerStore;
  gate: ConsultGate;
  cache: ConsultCache;
  access: ConsultAccessView;
  /** Who did what to each consult; an entry is written before its action. */
  trail: ConsultTrail;
  /** The vet signed in, if any. */
  user: () => User | null;
  /** The service accounts belong to now (AppCore.serviceKey). */
  serviceKey: () => string;
  emit: Emit;
  /** The one way a consult's change is told to the window (after the one access filter). */
  outbox: ConsultOutbox;
  log: Logger;
  /** Keeps the template just sent as the one to offer first next time. */
  rememberTemplate: (templateId: string) => Promise<unknown>;
  /** The conversations with the clinical assistant kept with each consult. */
  conversations: ConversationStore;
  /** Visits of several pets: split into one consult each, journaled, and sent (visits.ts). */
  visits: Visits;
}
