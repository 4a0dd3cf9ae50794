// Loaded with `node --import` before the built main: makes the specifier `electron` (whether
// imported, as main does, or required, as electron-log does) resolve to the fake of this
// folder, refuses the `electron/...` subpaths loudly (the fake does not have them), then
// starts the driver, which waits for main's window and exercises the app.
//
// FAKE_ELECTRON_PLATFORM=win32|darwin makes process.platform say so, for main's code that runs
// on that system only (Notification.handleActivation on Windows). Node's own modules were
// loaded for Linux and stay so. FAKE_ELECTRON_KEYTAR=broken makes `keytar` a module that fails
// to load, as a native module in a broken install does.
import { registerHooks } from 'node:module';

const FAKE = new URL('./electron.ts', import.meta.url).href;
const BROKEN_KEYTAR = new URL('./broken-keytar.ts', import.meta.url).href;

const platform = process.env['FAKE_ELECTRON_PLATFORM'];
if (platform) Object.defineProperty(process, 'platform', { value: platform, enumerable: true, configurable: true });
const brokenKeytar = process.env['FAKE_ELECTRON_KEYTAR'] === 'broken';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: FAKE, shortCircuit: true };
    if (specifier.startsWith('electron/'))
      throw new Error(`fake electron: '${specifier}' is not implemented (test/support/fake-electron/register.ts)`);
    if (brokenKeytar && specifier === 'keytar') return { url: BROKEN_KEYTAR, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

await import('./driver.ts');
