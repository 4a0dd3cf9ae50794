// What every part of the engine stands on: files written whole (atomic-file), one queue per key,
// the log (redacted), what a failing disk means to the vet, backoff, the ports the platform gives,
// and how a part declares its IPC calls. Depends on nothing else of the engine.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { readJson, tempTarget, writeJsonAtomic, writeTextAtomic } from './atomic-file.ts';
export { DEFAULT_BACKOFF, backoffDelay, pollDelay, type BackoffOptions } from './backoff.ts';
export { diskErrorCode, diskErrorMessage, type DiskErrorCode } from './disk-errors.ts';
export { type Call, type Calls, type ChannelsOf, type OwnerAction } from './ipc-call.ts';
export { KeyedQueue } from './keyed-queue.ts';
export { createLogger, loggerFromEnv, redact, type Logger } from './log.ts';
export {
  type ClipboardPort,
  type EmbeddedService,
  type EmbeddedServicePort,
  type Emit,
  type ShortcutPort,
  type UpdatePort,
} from './ports.ts';
export { Refusal, type RefusalCode } from './refusal.ts';
