// Full-page screenshots of the main views, kept with the test results; with
// UPDATE_README_SCREENSHOTS=1 they are also copied to docs/screenshots for the README.
import { copyFileSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, type Page } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '../../..');
export const SCREENSHOT_DIR = resolve(ROOT, 'test-results/screenshots');
const README_DIR = resolve(ROOT, 'docs/screenshots');

/** With `{ fullPage: false }`, what the window shows, as the vet sees it first. */
export async function shot(page: Page, name: string, { fullPage = true } = {}): Promise<string> {
  if (!/^[a-z0-9-]+$/.test(name)) throw new Error(`screenshot names are kebab-case: "${name}"`);
  const path = resolve(SCREENSHOT_DIR, `${name}.png`);
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // From the top: a full-page picture of a scrolled page would draw the sticky header where
  // the view was scrolled to, not at the top where the vet sees it.
  await page.evaluate('window.scrollTo(0, 0)');
  // A blinking caret or a running animation would make every run's picture differ.
  await page.screenshot({ path, fullPage, animations: 'disabled', caret: 'hide' });
  await test.info().attach(name, { path, contentType: 'image/png' });
  if (process.env['UPDATE_README_SCREENSHOTS'] === '1') {
    mkdirSync(README_DIR, { recursive: true });
    copyFileSync(path, resolve(README_DIR, `${name}.png`));
  }
  return path;
}

/** The window sizes and colour schemes a view is pictured at: the exam-room PCs' two screens. */
export const LOOKS = [
  { width: 1280, height: 800, colorScheme: 'light' },
  { width: 1280, height: 800, colorScheme: 'dark' },
  { width: 1024, height: 700, colorScheme: 'light' },
  { width: 1024, height: 700, colorScheme: 'dark' },
] as const;
export type Look = (typeof LOOKS)[number];

/** Puts the page in each look in turn (its size, then its colour scheme) and calls `take` there. */
export async function eachLook(page: Page, take: (look: Look) => Promise<void>): Promise<void> {
  for (const look of LOOKS) {
    await page.setViewportSize({ width: look.width, height: look.height });
    await page.emulateMedia({ colorScheme: look.colorScheme });
    await take(look);
  }
}
