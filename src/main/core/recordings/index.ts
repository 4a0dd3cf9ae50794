// The recording store, as the rest of the app imports it; the files are listed in README.md.
export { RecordingError, type RecordingErrorCode } from './errors.ts';
export { READ_AT_ONCE } from './folders.ts';
export { localDate, type RecordingMeta, type RecordingState, type VisitSplit } from './meta.ts';
export { RecordingStore } from './store.ts';
