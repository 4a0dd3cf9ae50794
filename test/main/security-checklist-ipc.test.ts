// Electron's security checklist (https://www.electronjs.org/docs/latest/tutorial/security), one
// describe per item, shown on the real code of src/main and src/preload: who may call main over
// IPC, and what the preload's bridge gives the page. The IPC handlers are called the way
// Electron would, from our window and from strangers; the preload runs on the fakes and its
// bridge is called with every name the contract lacks.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bindIpc } from '../../src/main/ipc.ts';
import { appUrl } from '../../src/main/window.ts';
import type { HandlerTable } from '../../src/main/core/ipc-handlers.ts';
import { channelsFromArgv } from '../../src/shared/bridge-channels.ts';
import { EVENT_CHANNELS, INVOKE_CHANNELS } from '../../src/shared/ipc.ts';
import { seededRandom } from '../../src/shared/seeded-random.ts';
import { filesMatching, hardenedApp, pick } from './security-checklist-support.ts';
import { electron, type Listener } from './security-checklist-electron.ts';

vi.mock('electron', async () => (await import('./security-checklist-electron.ts')).electron);

const app = hardenedApp();

describe('checklist 17: validate the sender of all IPC messages', () => {
  type Handler = (event: unknown, input: unknown) => unknown;
  const calls: { channel: string; input: unknown }[] = [];
  const handlers = Object.fromEntries(
    INVOKE_CHANNELS.map((c) => [
      c,
      (input: unknown) => (calls.push({ channel: c, input }), { ok: true, data: 'answer' }),
    ]),
  ) as unknown as HandlerTable;
  let registered: Map<string, Handler>;
  let unbind: () => void;

  beforeAll(() => {
    electron.ipcMain.handle.mockClear();
    unbind = bindIpc(handlers, appUrl, (line) => app.logLines.push(line));
    registered = new Map(electron.ipcMain.handle.mock.calls.map((c) => [c[0] as string, c[1] as Handler]));
  });
  afterAll(() => unbind());

  const ours = () => electron.windows[0]!.win.webContents;
  const event = (sender: unknown, frame: { url: string; parent: unknown } | null) => ({ sender, senderFrame: frame });

  it('registers exactly the contract channels, through the one wrapper', () => {
    expect([...registered.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(filesMatching(/ipcMain\.(handle|on|once|handleOnce)\(/)).toEqual(['src/main/ipc.ts']);
  });

  it('answers our window top frame on our page, and refuses every other sender before reading the input', async () => {
    calls.length = 0;
    const call = (e: unknown) => registered.get('session:get')!(e, { probe: true });
    expect(await call(event(ours(), { url: appUrl(), parent: null }))).toEqual({ ok: true, data: 'answer' });
    expect(calls).toHaveLength(1);
    const refused = [
      event(new electron.WebContents(), { url: appUrl(), parent: null }),
      event(ours(), { url: appUrl(), parent: { url: appUrl() } }),
      event(ours(), { url: 'https://attacker.example.com/', parent: null }),
      event(ours(), { url: 'file:///tmp/evil.html', parent: null }),
      event(ours(), { url: `file://attacker.example.com${new URL(appUrl()).pathname}`, parent: null }),
      event(ours(), null),
    ];
    for (const e of refused) {
      const answer = (await call(e)) as { ok: boolean; error?: { code: string } };
      expect(answer.ok).toBe(false);
      expect(answer.error?.code).toBe('forbidden_sender');
    }
    expect(calls).toHaveLength(1);
    expect(app.logLines.every((l) => !/[\r\n]/.test(l))).toBe(true);
  });
});

describe('checklist 20: do not expose Electron APIs to untrusted web content', () => {
  type Bridge = {
    invoke: (channel: string, input: unknown) => Promise<unknown>;
    on: (event: string, listener: (...args: unknown[]) => void) => () => void;
  };
  let exposed: { key: string; api: Bridge };

  beforeAll(async () => {
    electron.contextBridge.exposeInMainWorld.mockClear();
    // The preload runs in the window's renderer process, whose command line main gave it: the
    // contract's channel names, the only ones it lets through.
    const given = app.webPreferences['additionalArguments'] as string[];
    expect(given).toHaveLength(1);
    process.argv.push(...given);
    try {
      await import('../../src/preload/index.ts');
    } finally {
      process.argv.splice(process.argv.length - given.length, given.length);
    }
    const calls = electron.contextBridge.exposeInMainWorld.mock.calls as unknown as [string, Bridge][];
    expect(calls).toHaveLength(1);
    exposed = { key: calls[0]![0], api: calls[0]![1] };
  });

  it('the preload is given exactly the contract’s channels, and none when its argument is missing or malformed', () => {
    const given = channelsFromArgv(app.webPreferences['additionalArguments'] as string[]);
    expect([...given.invoke].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect([...given.events].sort()).toEqual([...EVENT_CHANNELS].sort());
    const none = { invoke: [], events: [] };
    expect(channelsFromArgv(['electron', '--type=renderer'])).toEqual(none);
    expect(channelsFromArgv(['--vet-scribe-ipc={"invoke":'])).toEqual(none);
    expect(
      channelsFromArgv(['--vet-scribe-ipc={"invoke":["app:info",7,"__proto__","a:b c"],"events":"notice"}']),
    ).toEqual({ invoke: ['app:info'], events: [] });
  });

  it('the preload exposes one object, window.bridge, with invoke and on, and no Electron object', () => {
    expect(exposed.key).toBe('bridge');
    expect(Object.keys(exposed.api).sort()).toEqual(['invoke', 'on']);
    for (const value of Object.values(exposed.api)) {
      expect(typeof value).toBe('function');
      expect(Object.values(electron.ipcRenderer)).not.toContain(value);
    }
    expect(Object.values(exposed.api)).not.toContain(electron.ipcRenderer);
  });

  it('invoke passes the contract channels and refuses every other name before it reaches ipcRenderer', async () => {
    for (const channel of INVOKE_CHANNELS) {
      electron.ipcRenderer.invoke.mockClear();
      await exposed.api.invoke(channel, { x: 1 });
      expect(electron.ipcRenderer.invoke).toHaveBeenCalledWith(channel, { x: 1 });
    }
    const next = seededRandom(20);
    const names = [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'app:info ',
      'APP:INFO',
      'app:*',
      '*',
      '',
      'ELECTRON_BROWSER_REQUIRE',
      'ipc:any',
      'session:getToken',
      'settings:get\u0000',
    ];
    for (let i = 0; i < 300; i++) {
      const base = pick(next, [...INVOKE_CHANNELS, ...names]);
      names.push(base + pick(next, ['x', ' ', ':', '\n', '.', '/..']));
    }
    electron.ipcRenderer.invoke.mockClear();
    for (const name of names) {
      const answer = (await exposed.api.invoke(name, {})) as { ok: boolean; error?: { code: string } };
      expect(answer, name).toEqual({ ok: false, error: { code: 'unknown_channel', message: expect.any(String) } });
    }
    expect(electron.ipcRenderer.invoke).not.toHaveBeenCalled();
  });

  it('on subscribes to contract events only, hands the page the payload alone, and unsubscribes', () => {
    for (const name of ['__proto__', 'constructor', 'ipc-message', 'session:changed ', ...INVOKE_CHANNELS]) {
      expect(() => exposed.api.on(name, () => {}), name).toThrow();
    }
    for (const channel of EVENT_CHANNELS) {
      electron.ipcRenderer.on.mockClear();
      electron.ipcRenderer.removeListener.mockClear();
      const received: unknown[][] = [];
      const off = exposed.api.on(channel, (...args) => received.push(args));
      const [name, handler] = electron.ipcRenderer.on.mock.calls[0] as unknown as [string, Listener];
      expect(name).toBe(channel);
      // The IPC event carries `sender` (ipcRenderer itself): the page must never get it.
      handler({ sender: electron.ipcRenderer, ports: [] }, { payload: 1 });
      expect(received).toEqual([[{ payload: 1 }]]);
      off();
      expect(electron.ipcRenderer.removeListener).toHaveBeenCalledWith(channel, handler);
    }
  });
});
