// The IPC calls of the computer rather than of a consult: the sign-in and Switch user
// (`session:*`), the app and its settings, templates, the clipboard, updates and the recorder's
// commands from the tray. Those whose answer is the computer's (`answers: 'computer'`) are
// answered even when the vet who asked has left: a change of service signs the vet out by
// design, and the sign-in's own answer is about who is in front now.
import type { AppCore } from './app-core.ts';
import type { Calls, ChannelsOf } from './ipc-call.ts';

type ComputerChannel = ChannelsOf<'app' | 'session' | 'settings' | 'templates' | 'clipboard' | 'update' | 'recorder'>;

export function computerCalls(core: AppCore): Calls<ComputerChannel> {
  const { calls, appSettings, retention, updates, notes } = core;
  return {
    'app:info': { answers: 'computer', run: () => core.appInfo() },
    'session:get': { answers: 'computer', run: () => calls.sessionInfo() },
    'session:signIn': { answers: 'computer', run: ({ email, password }) => calls.signIn(email, password) },
    'session:signOut': { answers: 'computer', run: () => calls.signOut() },
    'session:switchUser': { answers: 'computer', run: () => calls.switchUser() },
    'settings:get': { run: () => appSettings.view() },
    'settings:update': { answers: 'computer', run: (patch) => appSettings.update(patch) },
    'settings:retentionPreview': { run: ({ retentionDays }) => retention.preview(retentionDays) },
    'templates:list': { run: ({ page, limit }) => calls.templates(page, limit) },
    'clipboard:write': { answers: 'computer', run: (flavours) => notes.copy(flavours) },
    'update:get': { answers: 'computer', run: () => updates.info() },
    'update:restart': { answers: 'computer', run: () => updates.restart() },
    'recorder:listening': { run: (_input, actor) => core.recorderCommands.listen(actor) },
  };
}
