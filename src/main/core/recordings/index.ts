// The recording store, as the rest of the app imports it: chunks on disk, a recording's meta (the
// engine's one copy of every recording), crash recovery, WebM duration, audio with ranges.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { READ_AT_ONCE } from './folders.ts';
export { localDate, type RecordingMeta, type RecordingState, type VisitSplit } from './meta.ts';
export { RecordingStore } from './store.ts';
export { IndexKeeper, type IndexedJobs } from './consult-index.ts';
export { audioAnswer } from './audio-range.ts';
