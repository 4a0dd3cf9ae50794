// The relay's pairs of a scribe and its recording session kept in the app's data folder: a
// restarted computer asks GET /links only after the last id it read, and still knows the pairs
// read before; a relay whose ids start again (its store wiped) is read from the start; a kept
// file that cannot be read is read again from the relay, never trusted.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import { startCoreAgainst, tempDir, until } from '../../../support/core.ts';
import { closedAfterEach } from '../support.ts';
import { startRelayDouble, type RelayDouble } from './relay-double.ts';

let sandbox: Sandbox;
let relay: RelayDouble;
const atEnd = closedAfterEach();

beforeAll(async () => {
  let scribeUrl = '';
  relay = await startRelayDouble({ scribeUrl: () => scribeUrl, webhookSecret: () => null, heartbeatMs: 200 });
  sandbox = await startSandbox({ scribeSeconds: 1, rateLimitPerMinute: 0 });
  scribeUrl = sandbox.urls.scribe_url;
});
afterAll(async () => {
  await sandbox.close();
  await relay.close();
});

/** A computer on `dataDir` with the relay set and the demo vet signed in, subscribed. */
async function computer(dataDir: string): Promise<AppCore> {
  const core: AppCore = await startCoreAgainst(sandbox, {
    dataDir,
    relay: { heartbeatMs: 200, backoff: { baseMs: 50, capMs: 300 } },
  });
  await core.appSettings.update({ relayUrl: relay.url });
  await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
  await until(() => core.relay.status().state === 'connected', 10_000);
  return core;
}

function pairsOf(core: AppCore) {
  const user = core.session.state().user!;
  return core.relay.pairs(user.id, user.organizationId);
}

const pair = (n: number) => ({
  public_id: `scribe-${n}`,
  recording_session_public_id: `session-${n}`,
  status: 'scribed',
});

describe("the relay's links kept on disk", () => {
  it('asks only for what is new after a restart, and reads again a relay that started its ids again', async () => {
    const dataDir = tempDir();
    relay.add(pair(1));
    relay.add({ ...pair(2), recording_session_public_id: null });
    relay.add(pair(3));

    const first = await computer(dataDir);
    expect([...(await pairsOf(first))]).toEqual([
      ['scribe-1', 'session-1'],
      ['scribe-3', 'session-3'],
    ]);
    // From the start, then once more after the last id to see that nothing more is kept.
    expect(relay.linkReads).toEqual([0, 3]);
    await first.stop();

    relay.add(pair(4));
    const again = await computer(dataDir);
    atEnd(() => again.stop());
    relay.linkReads.length = 0;
    const known = await pairsOf(again);
    // Asked after the last id read before the restart, the pairs read then known still.
    expect(relay.linkReads).toEqual([3, 4]);
    expect(new Map(known)).toEqual(
      new Map([
        ['scribe-1', 'session-1'],
        ['scribe-3', 'session-3'],
        ['scribe-4', 'session-4'],
      ]),
    );

    // The relay's store wiped: its ids start again below the last one read.
    relay.events.length = 0;
    relay.add(pair(5));
    relay.linkReads.length = 0;
    expect((await pairsOf(again)).get('scribe-5')).toBe('session-5');
    expect(relay.linkReads).toEqual([4, 0, 1]);
    expect((await pairsOf(again)).get('scribe-1')).toBe('session-1');
  });

  it('reads everything again when the kept file cannot be read', async () => {
    const dataDir = tempDir();
    relay.events.length = 0;
    relay.add(pair(6));
    const first = await computer(dataDir);
    await pairsOf(first);
    await first.stop();
    const dir = join(dataDir, 'relay');
    const [file] = readdirSync(dir).filter((f) => f.endsWith('.json'));
    writeFileSync(join(dir, file!), '{"version": 1, "since": "not a number"');

    const again = await computer(dataDir);
    atEnd(() => again.stop());
    relay.linkReads.length = 0;
    expect((await pairsOf(again)).get('scribe-6')).toBe('session-6');
    expect(relay.linkReads).toEqual([0, 1]);
  });
});
