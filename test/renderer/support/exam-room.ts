// Another exam room of the same clinic, for the tests of what the window shows of consults
// recorded elsewhere: a second engine against this window's sandbox, with a folder of its own.
import type { AppCore } from '../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../src/main/core/ipc-handlers.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { recordThrough, startCoreAgainst, waitForJob } from '../../support/core.ts';

/**
 * Starts the other exam room, signed in as the demo vet, and records Bella there until her note
 * is written: the clinic's list of the demo vet then has her. The caller stops it.
 */
export async function examRoomThatRecordedBella(core: AppCore): Promise<AppCore<Sandbox>> {
  const sandbox = (core as AppCore<Sandbox>).embeddedSandbox!;
  const elsewhere = await startCoreAgainst(sandbox);
  await elsewhere.session.signIn(sandbox.demo.email, sandbox.demo.password);
  const h = createHandlers(elsewhere);
  const templates = await h['templates:list']({ page: 1 });
  if (!templates.ok) throw new Error(templates.error.message);
  const id = await recordThrough(h, 'Bella', 'Limping on the left hind');
  await h['consults:submit']({ id, templateId: templates.data.items[0]!.id });
  await waitForJob(elsewhere, id, (j) => j.state === 'completed');
  return elsewhere;
}
