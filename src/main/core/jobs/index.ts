// One durable job per recording, from its audio to its note: the pipeline and its steps, the
// job store, documents, polling, and the recording sessions asked for here.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { PATIENT_NAME_REQUIRED, Pipeline, type PipelineOptions, type RetentionPolicy } from './pipeline.ts';
export {
  matchAsk,
  recordingSessionAskSchema,
  type KeptAsk,
  type RecordingSessionAsk,
} from './recording-session-asks.ts';
