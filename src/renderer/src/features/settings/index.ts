// The Settings view. The only way in from outside this folder.
export { SettingsView } from './settings-view.tsx';
// What the organization's answers forget at sign-out (connect-stores.ts).
export { orgSessionChanged } from './org-answers.ts';
