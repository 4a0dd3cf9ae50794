// Another exam room of the same clinic, for the tests of what the window shows of consults
// recorded elsewhere: a second engine against this window's sandbox, with a folder of its own.
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { AppCore } from '../../../src/main/core/app-core.ts';
import { createHandlers } from '../../../src/main/core/ipc-handlers.ts';
import type { Sandbox } from '../../../src/sandbox/index.ts';
import { useSession } from '../../../src/renderer/src/stores/session.ts';
import { recordThrough, startCoreAgainst, waitForJob } from '../../support/core.ts';
import { browserStandIns, type BrowserStandIns } from './browser-stand-ins.ts';
import { windowWithEngine } from './window.ts';

/** Records a consult of `patient` on `room` with its first template until its note is written; its id. */
export async function recordNote(room: AppCore, patient: string, description: string): Promise<string> {
  const h = createHandlers(room);
  const templates = await h['templates:list']({ page: 1 });
  if (!templates.ok) throw new Error(templates.error.message);
  const id = await recordThrough(h, patient, description);
  await h['consults:submit']({ id, templateId: templates.data.items[0]!.id });
  await waitForJob(room, id, (j) => j.state === 'completed');
  return id;
}

/**
 * Starts the other exam room, signed in as the demo vet, and records Bella there until her note
 * is written: the clinic's list of the demo vet then has her. The caller stops it.
 */
export async function examRoomThatRecordedBella(core: AppCore): Promise<AppCore<Sandbox>> {
  const sandbox = (core as AppCore<Sandbox>).embeddedSandbox!;
  const elsewhere = await startCoreAgainst(sandbox);
  await elsewhere.session.signIn(sandbox.demo.email, sandbox.demo.password);
  await recordNote(elsewhere, 'Bella', 'Limping on the left hind');
  return elsewhere;
}

/** This window's engine and the browser's stand-ins, for a file's tests. */
export interface WindowBesideExamRoom {
  readonly core: AppCore;
  /** The clipboard and downloads jsdom lacks, installed before the first test. */
  readonly browser: BrowserStandIns;
}

/**
 * For a file's tests: this window on the engine, signed in, beside the other exam room that
 * recorded Bella, and then whatever `more` records there. The window then knows who is signed
 * in, as at its start. Each test's render is cleaned up; both engines stop after the file.
 */
export function windowBesideExamRoom(
  more: (elsewhere: AppCore<Sandbox>) => Promise<unknown> = async () => undefined,
  timeoutMs = 60_000,
): WindowBesideExamRoom {
  const browser = browserStandIns();
  let core: AppCore | undefined;
  let elsewhere: AppCore<Sandbox> | undefined;
  beforeAll(async () => {
    core = (await windowWithEngine({ signIn: true })).core;
    elsewhere = await examRoomThatRecordedBella(core);
    await more(elsewhere);
    await useSession.getState().load();
    browser.install();
  }, timeoutMs);
  afterEach(cleanup);
  afterAll(async () => {
    await elsewhere?.stop();
    await core?.stop();
  });
  return {
    browser,
    get core() {
      if (!core) throw new Error('the window is started before the first test');
      return core;
    },
  };
}
