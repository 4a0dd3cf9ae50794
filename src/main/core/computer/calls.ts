// The IPC calls of the computer rather than of a consult: the sign-in and Switch user
// (`session:*`), the app and its settings, templates, the clipboard, updates and the recorder's
// commands from the tray. Those whose answer is the computer's (`answers: 'computer'`) are
// answered even when the vet who asked has left: a change of service signs the vet out by
// design, and the sign-in's own answer is about who is in front now.
import type { AppInfo } from '../../../shared/ipc.ts';
import type { AccountRetention, ConsultNotes } from '../consults/index.ts';
import type { Calls, ChannelsOf } from '../platform/index.ts';
import type { ServiceCalls } from '../sign-in/index.ts';
import type { AppSettings } from './app-settings.ts';
import type { RecorderCommands } from './recorder-commands.ts';
import type { UpdateControl } from './update-control.ts';

type ComputerChannel = ChannelsOf<'app' | 'session' | 'settings' | 'templates' | 'clipboard' | 'update' | 'recorder'>;

/** What the computer's calls run on. */
export interface ComputerCallParts {
  appInfo(): AppInfo;
  calls: ServiceCalls;
  appSettings: AppSettings;
  retention: AccountRetention;
  updates: UpdateControl;
  notes: Pick<ConsultNotes, 'copy'>;
  recorderCommands: RecorderCommands;
}

export function computerCalls(parts: ComputerCallParts): Calls<ComputerChannel> {
  const { calls, appSettings, retention, updates, notes, recorderCommands } = parts;
  return {
    'app:info': { answers: 'computer', run: () => parts.appInfo() },
    'session:get': { answers: 'computer', run: () => calls.sessionInfo() },
    'session:signIn': { answers: 'computer', run: ({ email, password }) => calls.signIn(email, password) },
    'session:signOut': { answers: 'computer', run: () => calls.signOut() },
    'session:switchUser': { answers: 'computer', run: () => calls.switchUser() },
    'settings:get': { run: () => appSettings.view() },
    'settings:update': { answers: 'computer', run: (patch) => appSettings.update(patch) },
    'settings:tryService': { answers: 'computer', run: ({ serviceUrls }) => appSettings.tryService(serviceUrls) },
    'settings:retentionPreview': { run: ({ retentionDays }) => retention.preview(retentionDays) },
    'templates:list': { run: ({ page, limit }) => calls.templates(page, limit) },
    'clipboard:write': { answers: 'computer', run: (flavours) => notes.copy(flavours) },
    'update:get': { answers: 'computer', run: () => updates.info() },
    'update:restart': { answers: 'computer', run: () => updates.restart() },
    'recorder:listening': { run: (_input, actor) => recorderCommands.listen(actor) },
  };
}
