import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * `npm run dev` only: the page's CSP meta tag is loosened as main loosens the header for the
 * dev server (src/main/security.ts, devContentSecurityPolicy): Vite's page runs an inline module
 * script, injects style tags and talks to its server over a WebSocket. The built page keeps the
 * strict tag (this plugin does not run for a build).
 */
export const devCspPlugin: Plugin = {
  name: 'vet-scribe-dev-csp',
  apply: 'serve',
  transformIndexHtml(html) {
    return html.replace(
      /(http-equiv="Content-Security-Policy"\s+content=")([^"]*)"/,
      (_m, start: string, policy: string) => {
        const dev = policy
          .replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
          .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
          .replace("connect-src 'self'", "connect-src 'self' ws: wss:");
        return `${start}${dev}"`;
      },
    );
  },
};

// Main is ESM ("type": "module"); the preload runs in a sandboxed renderer, which only
// loads CommonJS, so it is built as a single .cjs file.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Everything main uses is bundled into out/main: an ESM main importing packages from
      // inside app.asar depends on how each package resolves there. Only keytar stays out.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/main/index.ts') },
        // keytar is a native addon: it is loaded from node_modules (app.asar.unpacked) at run time.
        external: ['keytar'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'src/renderer'),
    build: {
      outDir: 'out/renderer',
      minify: true,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/renderer/index.html') },
      },
    },
    plugins: [react(), devCspPlugin],
  },
});
