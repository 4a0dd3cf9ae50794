// The Record view and what records in the background (the tray, the shortcut). The only way in
// from outside this folder.
export { initRecorder } from './recorder-controller.ts';
export { RecorderView } from './recorder-view.tsx';
