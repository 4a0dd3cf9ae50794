// The next vet at the exam-room PC, against the real engine: what the vet who left saw, typed
// or was told is not on the screen for the next one, and an answer that arrives late for the
// vet who left is not shown to the next. The window's bridge here can hold chosen answers on
// their way to the window, as a busy window would, while the test switches user.
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core.ts';
import { createHandlers } from '../../src/main/core/ipc-handlers.ts';
import type { Sandbox } from '../../src/sandbox/index.ts';
import { DEMO_ACCOUNT, OTHER_ACCOUNT } from '../../src/sandbox/state.ts';
import type { BridgeApi, InvokeChannel } from '../../src/shared/ipc.ts';
import type * as ClinicStore from '../../src/renderer/src/stores/clinic.ts';
import type * as ClinicListModule from '../../src/renderer/src/features/consults/clinic-list.tsx';
import { recordThrough, startCoreAgainst, waitForJob } from '../integration/support/core.ts';
import { installRealBridge } from './support/real-bridge.ts';

let core: AppCore;
let elsewhere: AppCore<Sandbox>;
let clinic: typeof ClinicStore;
let ClinicList: typeof ClinicListModule.ClinicList;

/** Answers of these channels wait here on their way to the window, once each, until let go. */
const holdOnce = new Set<InvokeChannel>();
const held: (() => void)[] = [];
/** Each call the window made, with who was signed in at the engine as it was made, and whether it was answered. */
const calls: { channel: InvokeChannel; user: string | null; answered: boolean }[] = [];

beforeAll(async () => {
  const installed = await installRealBridge({ signIn: true });
  core = installed.core;
  const real = installed.bridge;
  (window as unknown as { bridge: BridgeApi }).bridge = {
    ...real,
    invoke: async (channel: InvokeChannel, input?: unknown) => {
      const call = { channel, user: core.session.state().user?.id ?? null, answered: false };
      calls.push(call);
      const answer = await real.invoke(channel, input as never);
      call.answered = true;
      if (holdOnce.delete(channel)) await new Promise<void>((resolve) => held.push(resolve));
      return answer;
    },
  } as BridgeApi;
  // Another exam room of the demo clinic records Bella: the clinic's list of the demo vet has her.
  const sandbox = (core as AppCore<Sandbox>).embeddedSandbox!;
  elsewhere = await startCoreAgainst(sandbox);
  await elsewhere.session.signIn(DEMO_ACCOUNT.email, DEMO_ACCOUNT.password);
  const h = createHandlers(elsewhere);
  const templates = await h['templates:list']({ page: 1 });
  if (!templates.ok) throw new Error(templates.error.message);
  const id = await recordThrough(h, 'Bella', 'Limping on the left hind');
  await h['consults:submit']({ id, templateId: templates.data.items[0]!.id });
  await waitForJob(elsewhere, id, (j) => j.state === 'completed');

  clinic = await import('../../src/renderer/src/stores/clinic.ts');
  ({ ClinicList } = await import('../../src/renderer/src/features/consults/clinic-list.tsx'));
  const { useSession } = await import('../../src/renderer/src/stores/session.ts');
  await useSession.getState().load();
}, 60_000);
afterEach(cleanup);
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await elsewhere.stop();
  await core.stop();
});

const handlers = () => createHandlers(core);

/** Switch user at the engine, then the next vet signs in. */
async function switchTo(account: { email: string; password: string }): Promise<string> {
  await act(async () => {
    await handlers()['session:switchUser'](undefined as never);
    await core.session.signIn(account.email, account.password);
  });
  return core.session.state().user!.id;
}

const names = (view: { consults: { patientName: string | null }[] } | null) =>
  (view?.consults ?? []).map((c) => c.patientName);

describe("the clinic's list across Switch user", () => {
  it("drops the last vet's late answer and reads the next vet's own list, and offers Refresh on an empty list", async () => {
    const demo = core.session.state().user!.id;
    clinic.refreshOncePerSignIn(demo);
    await waitFor(() => expect(names(clinic.useClinic.getState().view)).toContain('Bella'));

    // The demo vet reads the list again; its answer is on its way when the vet switches user.
    holdOnce.add('clinic:refresh');
    const late = clinic.useClinic
      .getState()
      .refresh()
      .catch(() => undefined);
    await waitFor(() => expect(held).toHaveLength(1));
    const other = await switchTo(OTHER_ACCOUNT);
    const reads = () => calls.filter((c) => c.channel === 'clinic:refresh' && c.user === other);
    await waitFor(() => expect(reads().map((c) => c.answered)).toEqual([true]));
    for (const release of held.splice(0)) release();
    await late;
    await waitFor(() => expect(clinic.useClinic.getState().refreshing).toBe(false));
    expect(clinic.useClinic.getState().refreshedFor).toBe(other);
    expect(names(clinic.useClinic.getState().view)).toEqual([]);

    // The other clinic has none from elsewhere yet: Refresh is there all the same.
    render(<ClinicList filter={{ words: '', day: '', state: 'all' }} />);
    const section = await screen.findByRole('region', { name: 'The clinic’s other consults' });
    expect(within(section).getByText('The service lists none recorded elsewhere.')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(reads()).toHaveLength(2));
  });
});
