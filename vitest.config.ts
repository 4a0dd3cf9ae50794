import { defineConfig } from 'vitest/config';

// Two projects (docs/testing.md): `node` for everything but the window (the engine, shared,
// the sandbox, the receiver, main's glue, the build), `renderer` for the window in jsdom.
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/renderer/**', 'test/e2e/**', '**/node_modules/**'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/renderer/support/setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
