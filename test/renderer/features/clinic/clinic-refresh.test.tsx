// The clinic's list kept up to date at an exam-room PC, against the real engine and its sandbox:
// Refresh is there while the list is empty, and reads a consult another exam room recorded since
// the vet signed in; opening Consults reads the list again when the last read is over a minute
// old, and not more often than that.
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../../src/main/core/ipc-handlers.ts';
import type { Sandbox } from '../../../../src/sandbox/index.ts';
import { ConsultsView } from '../../../../src/renderer/src/features/consult-list/consults-view.tsx';
import { READ_AGAIN_AFTER_MS, useClinic } from '../../../../src/renderer/src/stores/clinic.ts';
import { useSession } from '../../../../src/renderer/src/stores/session.ts';
import { recordThrough, waitForJob } from '../../../support/core.ts';
import { examRoomThatRecordedBella } from '../../support/exam-room.ts';
import { windowWithEngine, type WindowCall } from '../../support/window.ts';

let core: AppCore;
let elsewhere: AppCore<Sandbox> | undefined;
let calls: WindowCall[];

beforeAll(async () => {
  const window = await windowWithEngine({ signIn: true });
  core = window.core;
  calls = window.calls;
  await useSession.getState().load();
}, 60_000);
afterEach(cleanup);
afterAll(async () => {
  await elsewhere?.stop();
  await core.stop();
});

const reads = () => calls.filter((c) => c.channel === 'clinic:refresh').length;

async function clinicSection(): Promise<HTMLElement> {
  return screen.findByRole('region', { name: 'The clinic’s other consults' });
}

describe("the clinic's list at an exam-room PC", () => {
  it('offers Refresh while the list is empty, and Refresh reads a consult recorded elsewhere since', async () => {
    render(<ConsultsView />);
    const section = await clinicSection();
    await within(section).findByText('The service lists none recorded elsewhere.');
    expect(within(section).getByRole('button', { name: 'Refresh' })).toBeTruthy();

    // Meanwhile, another exam room of the clinic records Bella: nothing is signed out or in here.
    elsewhere = await examRoomThatRecordedBella(core);
    expect(within(section).queryByRole('article', { name: 'Bella' })).toBeNull();
    fireEvent.click(within(section).getByRole('button', { name: 'Refresh' }));
    expect(await within(section).findByRole('article', { name: 'Bella' }, { timeout: 10_000 })).toBeTruthy();
  }, 60_000);

  it('is read again as Consults opens when the last read is over a minute old, and not more often', async () => {
    // The other exam room records Milo.
    const h = createHandlers(elsewhere!);
    const templates = await h['templates:list']({ page: 1 });
    if (!templates.ok) throw new Error(templates.error.message);
    const milo = await recordThrough(h, 'Milo', 'Itchy ears');
    await h['consults:submit']({ id: milo, templateId: templates.data.items[0]!.id });
    await waitForJob(elsewhere!, milo, (j) => j.state === 'completed');

    // Opened again within the minute: the list is not read again.
    const before = reads();
    render(<ConsultsView />);
    let section = await clinicSection();
    await within(section).findByRole('article', { name: 'Bella' });
    expect(reads()).toBe(before);
    expect(within(section).queryByRole('article', { name: 'Milo' })).toBeNull();
    cleanup();

    // Opened once the last read is over a minute old: read again, and Milo is there without a click.
    useClinic.setState({ readAt: Date.now() - READ_AGAIN_AFTER_MS - 1_000 });
    render(<ConsultsView />);
    section = await clinicSection();
    expect(await within(section).findByRole('article', { name: 'Milo' }, { timeout: 10_000 })).toBeTruthy();
    expect(reads()).toBe(before + 1);
  }, 60_000);
});
