// Loaded with `node --import` before the built main: makes the specifier `electron` (whether
// imported, as main does, or required, as electron-log does) resolve to the fake of this
// folder, refuses the `electron/...` subpaths loudly (the fake does not have them), then
// starts the driver, which waits for main's window and exercises the app.
import { registerHooks } from 'node:module';

const FAKE = new URL('./electron.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: FAKE, shortCircuit: true };
    if (specifier.startsWith('electron/')) throw new Error(`fake electron: '${specifier}' is not implemented (test/integration/support/fake-electron/register.ts)`);
    return nextResolve(specifier, context);
  },
});

await import('./driver.ts');
