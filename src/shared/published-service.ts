// Facts of the published service the window and main both use, without zod (the window loads
// no schema library; test/architecture/window-imports.test.ts keeps it so).

/** The published service's three hosts (docs/service.md, "Three hosts"), the preset of the sign-in screen. */
export const PUBLISHED_SERVICE_URLS = {
  agentsUrl: 'https://agents.puppilot.co',
  scribeUrl: 'https://scribe-api.puppilot.co',
  agentsApiUrl: 'https://agents-api.puppilot.co',
} as const;

/** How often main looks again at a note that is late (overdue), in minutes. */
export const OVERDUE_CHECK_MINUTES = 2;
