// The app's settings: validated, kept on disk, read back whole.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { SettingsStore } from './settings.ts';
