// Binds the core's handler table to ipcMain, through this one wrapper: every call's sender is
// checked (one of our windows, showing our page) before its argument is even parsed; the
// handler table parses the argument with the contract's schema.
import { BrowserWindow, ipcMain, type IpcMainInvokeEvent } from 'electron';
import type { HandlerTable } from './core/ipc-handlers.ts';
import { INVOKE_CHANNELS, type InvokeChannel } from '../shared/ipc.ts';
import { isTrustedSender } from './security.ts';

export function bindIpc(handlers: HandlerTable, appUrl: () => string, log: (line: string) => void): () => void {
  const trusted = (event: IpcMainInvokeEvent): boolean =>
    isTrustedSender(
      {
        fromOurWindow: BrowserWindow.fromWebContents(event.sender) !== null,
        topFrame: event.senderFrame?.parent === null,
        frameUrl: event.senderFrame?.url ?? '',
      },
      appUrl(),
    );
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(channel, (event, input: unknown) => {
      if (!trusted(event)) {
        log(`ipc ${channel}: refused a call from ${event.senderFrame?.url ?? 'an unknown frame'}`);
        return { ok: false, error: { code: 'forbidden_sender', message: 'This window may not call the app.' } };
      }
      return handlers[channel as InvokeChannel](input);
    });
  }
  return () => {
    for (const channel of INVOKE_CHANNELS) ipcMain.removeHandler(channel);
  };
}
