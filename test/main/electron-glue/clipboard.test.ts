// The end-to-end suite's `electron` target reads the system clipboard from main to check a
// copied note (test/e2e/support/electron-host.ts). It must do so with Electron 45's clipboard:
// readHTML and readRTF were removed in Electron 44 and readText() answers a Promise. No
// Electron runs here, so the host's own reading code is run against the fake Electron's
// clipboard (support/fake-electron), which has Electron 45's methods and refuses the removed
// ones, after main's way of writing a note (one ClipboardItem, three flavours).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const home = mkdtempSync(join(tmpdir(), 'vet-scribe-glue-clipboard-'));
process.env['FAKE_ELECTRON_HOME'] = home;
const electron = await import('../../support/fake-electron/electron.ts');
const { ElectronHost } = await import('../../e2e/support/electron-host.ts');

/** An ElectronHost whose app runs what it evaluates against the fake Electron, as Playwright runs it in main. */
function hostOnTheFake(): InstanceType<typeof ElectronHost> {
  const host = new ElectronHost({
    dataDir: home,
    sandbox: {},
    logFile: join(home, 'main.log'),
    tokenLog: join(home, 'tokens.txt'),
    fakeAudio: '',
    artifactsDir: home,
  });
  const app = {
    evaluate: (fn: (electron: unknown, arg?: unknown) => unknown, arg?: unknown) =>
      Promise.resolve(fn(electron.default, arg)),
  };
  (host as unknown as { app: unknown }).app = app;
  return host;
}

const note = {
  text: 'Bella\n\nSubjective\nVomiting for two days.',
  html: '<h2>Subjective</h2><p>Vomiting for two days.</p>',
  rtf: '{\\rtf1\\ansi Subjective\\par Vomiting.}',
};

beforeAll(async () => {
  electron.fake.ready = true;
  // As main writes a note (src/main/index.ts): one item, the three flavours under their MIME types.
  await electron.clipboard.write([
    new electron.ClipboardItem({ 'text/plain': note.text, 'text/html': note.html, 'text/rtf': note.rtf }),
  ]);
});

afterAll(() => {
  rmSync(home, { recursive: true, force: true });
});

describe("the electron target's clipboard reads", () => {
  it('reads the three flavours through clipboard.read(), not the removed readHTML and readRTF', async () => {
    expect(await hostOnTheFake().clipboardFlavours(undefined as never)).toEqual(note);
    expect(electron.fake.unimplemented).toEqual([]);
  });

  it('reads the text as a string, awaiting readText()', async () => {
    expect(await hostOnTheFake().clipboardText(undefined as never)).toBe(note.text);
  });

  it('the fake has no readHTML or readRTF, as Electron 45 has none', () => {
    const clipboard = electron.clipboard as unknown as Record<string, unknown>;
    expect(() => clipboard['readHTML']).toThrow(/clipboard\.readHTML is not implemented/);
    expect(() => clipboard['readRTF']).toThrow(/clipboard\.readRTF is not implemented/);
    electron.fake.unimplemented.length = 0;
  });
});
