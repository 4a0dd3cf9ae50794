// What belongs to the computer rather than to a consult: the settings as a clinic changes them
// (a change of service), the built-in sandbox while chosen, updates, the tray's and shortcut's
// commands, and their IPC calls.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { AppSettings, type SettingsInput } from './app-settings.ts';
export { computerCalls } from './calls.ts';
export { EmbeddedServiceHost } from './embedded-service.ts';
export { RecorderCommands } from './recorder-commands.ts';
export { UpdateControl } from './update-control.ts';
