// The Settings view. The only way in from outside this folder.
export { SettingsView } from './settings-view.tsx';
