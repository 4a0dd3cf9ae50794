// Settings → Clinic relay against the real engine (its built-in sandbox) and a relay built to the
// relay's protocol on loopback: no address says notes are polled for as usual; an address where
// nothing answers says "Not reachable: polling as usual"; the relay says "Connected."; an address
// the setting refuses (http beyond this computer) is said, and nothing is saved.
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { RelaySection } from '../../../../src/renderer/src/features/settings/relay-section.tsx';
import { useSettings } from '../../../../src/renderer/src/stores/settings.ts';
import { startRelayDouble, type RelayDouble } from '../../../main/core/relay/relay-double.ts';
import { installRealBridge } from '../../support/real-bridge.ts';
import { closedPort } from '../../../support/http.ts';

let core: AppCore;
let relay: RelayDouble;

beforeAll(async () => {
  ({ core } = await installRealBridge({
    signIn: true,
    core: { relay: { heartbeatMs: 200, backoff: { baseMs: 50, capMs: 200 } } },
  }));
  relay = await startRelayDouble({ scribeUrl: () => core.serviceUrls().scribeUrl, heartbeatMs: 200 });
  await useSettings.getState().load();
}, 30_000);

afterEach(() => cleanup());

afterAll(async () => {
  await core.stop();
  await relay.close();
});

const section = () => screen.getByRole('region', { name: 'Clinic relay' });

async function saveAddress(address: string) {
  const field = within(section()).getByLabelText('Clinic relay address');
  await act(async () => {
    fireEvent.change(field, { target: { value: address } });
    fireEvent.click(within(field.closest('form')!).getByRole('button', { name: 'Save' }));
    await new Promise((r) => setTimeout(r, 50));
  });
}

async function untilSaid(text: string) {
  for (const end = Date.now() + 10_000; !section().textContent?.includes(text);) {
    if (Date.now() > end) throw new Error(`not said: ${text}; said: ${section().textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 50)));
  }
}

describe('Clinic relay in Settings', () => {
  it('says plainly whether the relay is there: none, not reachable, connected; a refused address is not saved', async () => {
    await act(async () => {
      render(<RelaySection relayUrl="" computerName="" hostName="vm" />);
      await new Promise((r) => setTimeout(r, 50));
    });
    await untilSaid('Now: No relay: notes are polled for as usual.');

    await saveAddress(`http://127.0.0.1:${await closedPort()}/`);
    await untilSaid('Now: Not reachable: polling as usual.');

    await saveAddress(relay.url);
    await untilSaid('Now: Connected.');
    expect(core.settings.get().relayUrl).toBe(relay.url);

    await saveAddress('http://relay.clinic.example/');
    await untilSaid('The relay address was not changed.');
    expect(section().textContent).toMatch(/https:\/\/ address \(http:\/\/ only for localhost\)/);
    expect(core.settings.get().relayUrl).toBe(relay.url);
  });
});
