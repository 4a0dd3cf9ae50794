import { defineConfig } from 'vitest/config';

// Two projects (docs/testing.md): `node` for main core, shared, sandbox and receiver (unit and
// integration over real loopback HTTP), `renderer` for React components and stores in jsdom.
export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
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
