// axe-core on the page as it is: every serious or critical violation fails the test, each
// listed with the elements it was found on.
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';

export async function expectAccessible(page: Page, view: string): Promise<void> {
  const builder = new AxeBuilder({ page });
  // axe finishes its run in a new blank page of the context; the Electron app's context (a
  // persistent one, with no browser object) cannot open one, so there axe runs in the page.
  if (!page.context().browser()) builder.setLegacyMode();
  const results = await builder.analyze();
  // No rule passing at all would mean axe looked at nothing (an empty or blocked page).
  expect(results.passes.length, `${view}: axe checked nothing`).toBeGreaterThan(0);
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  await test
    .info()
    .attach(`axe-${view}.json`, { body: JSON.stringify(results.violations, null, 2), contentType: 'application/json' });
  const report = bad
    .map(
      (v) =>
        `- [${v.impact}] ${v.id}: ${v.help} (${v.helpUrl})\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? ''}`).join('\n')}`,
    )
    .join('\n');
  expect(bad, `${view}: ${bad.length} serious or critical accessibility violation(s)\n${report}`).toEqual([]);
}
