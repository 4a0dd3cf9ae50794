// The handler table of the IPC contract: one function per channel that takes `unknown`,
// parses it with the contract's schema, decides once who the call acts for, asks the gate what
// the call's declaration requires (each part of the engine declares its calls next to its code:
// ipc-call.ts), runs it, and answers an envelope. It knows no transport: Electron's ipcMain
// (src/main/ipc.ts) and the browser test host bind the same table.
import {
  describeIssues,
  invokeContract,
  type InvokeChannel,
  type InvokeOutput,
  type IpcError,
  type IpcResult,
} from '../../shared/ipc.ts';
import type { AppCore } from './app-core.ts';
import { clinicCalls } from './clinic/index.ts';
import { agentCalls } from './agents/index.ts';
import { computerCalls } from './computer/index.ts';
import { pimsCalls, PimsError } from './pims/index.ts';
import { relayCalls } from './relay/index.ts';
import { NOT_THEIRS, consultCalls, recorderCalls, TrailError } from './consults/index.ts';
import { diskErrorCode, diskErrorMessage, Refusal, type Call, type Calls } from './platform/index.ts';
import { isNetworkSetupFailure, ServiceError } from './service/index.ts';
import { SignedOutError, type Actor } from './sign-in/index.ts';

export type HandlerTable = { [C in InvokeChannel]: (input: unknown) => Promise<IpcResult<InvokeOutput<C>>> };

/** The engine's parts by name, as each part's calls take them. */
const pick = (core: AppCore) => ({
  calls: core.calls,
  appSettings: core.appSettings,
  retention: core.retention,
  updates: core.updates,
  notes: core.notes,
  recorderCommands: core.recorderCommands,
  commands: core.commands,
  access: core.access,
  answers: core.answers,
  trail: core.trail,
  conversation: core.conversation,
});

/** Every call the engine answers, as each part declares it next to its code (ipc-call.ts). */
export function declaredCalls(core: AppCore): Calls<InvokeChannel> {
  const parts = [
    computerCalls({ ...pick(core), appInfo: () => core.appInfo() }),
    recorderCalls(core),
    consultCalls({
      ...pick(core),
      revision: () => core.cache.revision(),
      search: (query) => core.search.search(query),
      audioUrl: (id) => core.options.audioUrl(id),
    }),
    clinicCalls(core),
    agentCalls(core),
    pimsCalls(core),
    relayCalls(core),
  ];
  const calls = Object.assign({}, ...parts) as Calls<InvokeChannel>;
  // A channel declared by two parts would have its first rules silently replaced.
  const declared = parts.flatMap((p) => Object.keys(p));
  const twice = declared.filter((c, i) => declared.indexOf(c) !== i);
  if (twice.length) throw new Error(`ipc ${twice.join(', ')} declared by two parts of the engine`);
  return calls;
}

/** An error as the window sees it: a code, a message a vet can act on, and whether to retry. */
export function toIpcError(e: unknown): IpcError {
  if (e instanceof SignedOutError) return { code: 'signed_out', message: e.message };
  if (e instanceof ServiceError) {
    const code =
      e.status === 401 && e.operation.startsWith('sign')
        ? 'invalid_credentials'
        : e.kind === 'http' || isNetworkSetupFailure(e)
          ? (e.code ?? `http_${e.status}`)
          : e.kind;
    // A proxy or certificate failure already says what failed and what to ask IT; the
    // connection itself is fine, so "check the network connection" would mislead.
    const message =
      e.kind === 'network' && !isNetworkSetupFailure(e)
        ? `The service cannot be reached. Check the network connection. (${e.message})`
        : e.kind === 'timeout'
          ? `The service did not answer in time. (${e.message})`
          : e.message;
    return { code, message, retryable: e.transient };
  }
  if (e instanceof TrailError) return { code: e.code, message: e.message, retryable: true };
  if (e instanceof Refusal) return { code: e.code, message: e.message };
  // What the practice-management system refused or could not do: already one sentence for the vet.
  if (e instanceof PimsError) return { code: `pims_${e.code}`, message: e.message, retryable: e.transient };
  // A disk error from anywhere else (a job or the settings being saved): its own code and a
  // sentence, never the errno text with the file's path.
  const disk = diskErrorCode(e);
  if (disk) return { code: disk, message: diskErrorMessage(disk), retryable: true };
  return { code: 'internal', message: `Something went wrong inside the app: ${(e as Error)?.message ?? String(e)}` };
}

/** What the window is told in place of an answer that came after the vet who asked had left. */
export const ANSWER_FOR_ANOTHER_VET =
  'This was asked by the vet who was signed in before; its answer is kept for them and not shown here.';

/** Whether a channel's input has an `id` (a consult's). */
function schemaNamesConsult(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'id' in shape;
}

/**
 * The table Electron and the browser host bind. `calls` are the engine's own declarations; a
 * test may hand others to see that a declaration without its gate is refused at start.
 */
export function createHandlers(core: AppCore, calls: Calls<InvokeChannel> = declaredCalls(core)): HandlerTable {
  // The one check of every answer, and of every refusal: one that lands after the vet who asked
  // has left the PC is theirs (kept with the consult where the call keeps it: a chat turn, an
  // agent's answer), never shown to the next vet, whose window this now is.
  const left = (call: Call<InvokeChannel>, actor: Actor | null) =>
    actor !== null && call.answers !== 'computer' && !core.actors.inFront(actor);
  const table: Partial<Record<InvokeChannel, (input: unknown) => Promise<IpcResult<unknown>>>> = {};
  for (const channel of Object.keys(invokeContract) as InvokeChannel[]) {
    const schema = invokeContract[channel].input;
    const call = calls[channel] as Call<InvokeChannel>;
    if (!call) throw new Error(`ipc ${channel} is declared by no part of the engine`);
    // The compiler already refuses such a declaration; this holds for one cast past it.
    if (!call.access && schemaNamesConsult(schema))
      throw new Error(`ipc ${channel} names a consult but asks nothing of the gate`);
    const run = call.run as (input: unknown, actor: Actor | null) => unknown;
    table[channel] = async (input: unknown) => {
      // Who this call acts for is decided here, once, as it comes in: the gate, the owner rule
      // and the work itself all see the same vet, whoever signs in while it runs.
      const actor = core.actors.current();
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        core.log.debug(`ipc ${channel}: invalid input`);
        return {
          ok: false,
          error: {
            code: 'invalid_input',
            message: `Invalid input for ${channel}: ${describeIssues(parsed.error.issues)}.`,
          },
        };
      }
      // A call declared with its access names a consult (its input has an `id`).
      const id = call.access ? (parsed.data as { id: string }).id : '';
      if (call.access && !core.gate.permits(id, call.access, actor)) {
        return { ok: false, error: { code: 'not_found', message: NOT_THEIRS } };
      }
      const refusal = call.ownerOnly ? core.gate.ownerOnly(id, call.ownerOnly, actor) : null;
      if (refusal) return { ok: false, error: { code: 'not_owner', message: refusal } };
      try {
        const data = await run(parsed.data, actor);
        if (left(call, actor)) return { ok: false, error: { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET } };
        return { ok: true, data };
      } catch (e) {
        const error: IpcError = left(call, actor)
          ? { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET }
          : toIpcError(e);
        core.log[error.code === 'internal' ? 'error' : 'debug'](`ipc ${channel}: ${error.code}: ${error.message}`);
        return { ok: false, error };
      }
    };
  }
  return table as HandlerTable;
}
