// The built-in sandbox as the port the engine is given (core/core-options.ts: EmbeddedServicePort):
// the engine never imports src/sandbox, so whoever creates an AppCore (main, the browser host,
// the tests, the benchmarks) passes this. Electron-free, for the browser host and the tests.
import {
  newSandboxSecret,
  sandboxSecretProblem,
  startSandbox,
  type Sandbox,
  type SandboxOptions,
} from '../sandbox/index.ts';
import type { EmbeddedServicePort } from './core/core-options.ts';

/** `overrides`: timings and faults (SANDBOX_* variables, the tests' shorter times); they win over the engine's data folder. */
export function embeddedSandbox(overrides: Partial<SandboxOptions> = {}): EmbeddedServicePort<Sandbox> {
  return {
    // The key last: options parsed from flags carry secretKey null, which must not win.
    start: async ({ dataDir, secretKey }) =>
      startSandbox({ dataDir, ...overrides, secretKey: overrides.secretKey ?? (await secretKey()) }),
    newSecret: newSandboxSecret,
    secretProblem: sandboxSecretProblem,
  };
}
