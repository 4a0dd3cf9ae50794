// Builds only the window into a folder of one's choosing (default out/renderer), with the same
// settings as electron-vite's renderer build. For looking at the window in the browser host
// while another build of the whole app runs: node scripts/build-renderer.ts /tmp/my-renderer
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(process.argv[2] ?? resolve(root, 'out/renderer'));
await build({
  root: resolve(root, 'src/renderer'),
  base: './',
  logLevel: 'warn',
  plugins: [react()],
  build: { outDir, emptyOutDir: true, minify: true },
});
console.log(`window built in ${outDir}`);
