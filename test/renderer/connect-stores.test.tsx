// The window's stores hear main only once connectStores has connected them (main.tsx does it
// once at start-up): importing a store subscribes it to nothing, and the connection is undone
// in one call.
import { afterAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { api, bridge } from '../../src/renderer/src/api.ts';
import { connectStores } from '../../src/renderer/src/connect-stores.ts';
import { useConsults } from '../../src/renderer/src/stores/consults.ts';
import { useSession } from '../../src/renderer/src/stores/session.ts';
import { installRealBridge } from './support/real-bridge.ts';
import { consult, recording } from './support/consult-info.ts';

let core: AppCore | undefined;
afterAll(async () => {
  await core?.stop();
});

describe('connectStores', () => {
  it('connects every store to main’s events, not importing them; what it connects it undoes', async () => {
    ({ core } = await installRealBridge({ signIn: true }));
    const heard = () => Object.keys(useConsults.getState().byId);
    const signedIn = () => useSession.getState().session.signedIn;

    // Imported, not connected: main's events change nothing.
    core.emit('consult:changed', consult(recording({ id: 'imported' })));
    core.emit('session:changed', { signedIn: true, user: core.session.state().user, endedBecause: null });
    expect(heard()).toEqual([]);
    expect(signedIn()).toBe(false);

    const disconnect = connectStores(api, bridge);
    // Signed in first: a change of vet empties the list of consults.
    core.emit('session:changed', { signedIn: true, user: core.session.state().user, endedBecause: null });
    core.emit('consult:changed', consult(recording({ id: 'connected' })));
    expect(heard()).toEqual(['connected']);
    expect(signedIn()).toBe(true);

    disconnect();
    core.emit('consult:changed', consult(recording({ id: 'disconnected' })));
    expect(heard()).toEqual(['connected']);
  });
});
