// Settings' Updates section says where updates stand in words: off on a Mac build not signed
// with a Developer ID (and why), and "Not updated" with the reason when a check, download or
// install failed. Against the real engine, with main's AutoUpdate (src/main/auto-update.ts)
// behind it as main wires it: told it runs on a Mac signed ad hoc.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AutoUpdate, MAC_UNSIGNED_MESSAGE } from '../../../../src/main/auto-update.ts';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { installRealBridge } from '../../support/real-bridge.ts';
import { UpdatesSection } from '../../../../src/renderer/src/features/settings/updates-section.tsx';

const FEED = 'https://updates.clinic.example/vet-scribe/';
let core: AppCore;
let updates: AutoUpdate;
let updaterLoaded = 0;

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vet-scribe-renderer-updates-'));
  updates = new AutoUpdate({
    updater: () => {
      updaterLoaded += 1;
      return Promise.reject(new Error('no updater in this test'));
    },
    isPackaged: true,
    configPath: join(dataDir, 'app-update.yml'),
    platform: 'darwin',
    macSigner: () => Promise.resolve({ team: null, why: 'it is signed ad hoc' }),
    log: () => undefined,
    onChange: (info) => core.emit('update:changed', info),
  });
  ({ core } = await installRealBridge({
    core: {
      dataDir,
      updates: {
        info: () => updates.state(),
        configure: (url) => void updates.configure(url),
        restart: () => updates.restart(),
      },
    },
  }));
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  updates.dispose();
  await core.stop();
});

async function renderSection() {
  await act(async () => {
    render(<UpdatesSection updateFeedUrl={FEED} />);
    await new Promise((r) => setTimeout(r, 50));
  });
  return screen.getByRole('region', { name: 'Updates' });
}

describe('Updates in Settings', () => {
  it('on a Mac build signed ad hoc: off, and says why, though a feed is set', async () => {
    await updates.configure(FEED);
    const section = await renderSection();
    expect(section.textContent).toContain(`Now: Off. ${MAC_UNSIGNED_MESSAGE}`);
    expect(MAC_UNSIGNED_MESSAGE).toMatch(/^Updates are off on this build: it is not signed with an Apple Developer ID/);
    expect(updaterLoaded).toBe(0);
  });

  it('after a failure: "Not updated", with the reason', async () => {
    const section = await renderSection();
    const failed = {
      phase: 'failed' as const,
      version: '0.2.0',
      message:
        "Version 0.2.0 was downloaded but the system refused to install it (code failed to satisfy specified code requirement(s)). The app goes on as it is and tries again at the next check; tell the clinic's IT if this happens again.",
    };
    await act(async () => {
      core.emit('update:changed', failed);
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(section.textContent).toContain(`Now: Not updated (version 0.2.0). ${failed.message}`);
  });
});
