// The handler table of the IPC contract: one function per channel that takes `unknown`,
// parses it with the contract's schema, runs it on the core, and answers an envelope. It knows
// no transport: Electron's ipcMain (src/main/ipc.ts) and the browser test host bind the same
// table.
import {
  describeIssues,
  invokeContract,
  type InvokeChannel,
  type InvokeInput,
  type InvokeOutput,
  type IpcError,
  type IpcResult,
} from '../../shared/ipc.ts';
import { actorAccount, type Actor } from './actor.ts';
import type { AppCore } from './app-core.ts';
import { InputError } from './clinical.ts';
import type { OwnerAction } from './consult-gate.ts';
import { NOT_THEIRS } from './consults/access.ts';
import { TrailError } from './consults/trail.ts';
import { JobError } from './jobs/pipeline.ts';
import { RecordingError } from './recordings/index.ts';
import { diskErrorCode, diskErrorMessage } from './disk-errors.ts';
import { isNetworkSetupFailure, ServiceError } from './service-errors.ts';
import { SignedOutError } from './session.ts';
import { SettingsError } from './settings.ts';

type In<C extends InvokeChannel> = InvokeInput<C>;
/** One call: its parsed input, and the vet it acts for (read once, as the call came in; null signed out). */
type Impl = { [C in InvokeChannel]: (input: never, actor: Actor | null) => Promise<InvokeOutput<C>> | InvokeOutput<C> };
export type HandlerTable = { [C in InvokeChannel]: (input: unknown) => Promise<IpcResult<InvokeOutput<C>>> };

/** The actor of a call that needs a vet signed in; signed out, the call is refused as such. */
function signedIn(actor: Actor | null): Actor {
  if (!actor) throw new SignedOutError(null);
  return actor;
}

// Every call that names a consult has passed the gate before it gets here (createHandlers); each
// is one call of the engine, whose parts hold the rules.
function implementations(core: AppCore): Impl {
  const { calls, appSettings, recorder, commands, notes, access, clinical, retention, updates } = core;
  return {
    'app:info': () => core.appInfo(),
    'session:get': () => calls.sessionInfo(),
    'session:signIn': ({ email, password }: In<'session:signIn'>) => calls.signIn(email, password),
    'session:signOut': () => calls.signOut(),
    'settings:get': () => appSettings.view(),
    'settings:update': (patch: In<'settings:update'>) => appSettings.update(patch),
    'templates:list': ({ page, limit }: In<'templates:list'>) => calls.templates(page, limit),
    'recording:start': (input: In<'recording:start'>) => recorder.start(input),
    'recording:chunk': (input: In<'recording:chunk'>) => recorder.chunk(input),
    'recording:pause': ({ id }: In<'recording:pause'>) => recorder.pause(id),
    'recording:resume': ({ id }: In<'recording:resume'>) => recorder.resume(id),
    'recording:stop': ({ id, durationMs, pets }: In<'recording:stop'>) => recorder.stop(id, durationMs, pets),
    'recording:update': (input: In<'recording:update'>) => commands.update(input),
    'consults:list': () => access.visible(),
    'consults:submit': ({ id, templateId }: In<'consults:submit'>) => commands.submit(id, templateId),
    'consults:retry': ({ id }: In<'consults:retry'>, actor) => commands.retry(id, signedIn(actor)),
    'consults:claim': ({ id }: In<'consults:claim'>) => commands.claim(id),
    'consults:delete': ({ id }: In<'consults:delete'>) => commands.delete(id),
    'consults:note': ({ id, documentId }: In<'consults:note'>, actor) => notes.read(id, documentId ?? null, actor),
    'consults:noteFormats': ({ id, documentId }: In<'consults:noteFormats'>) => notes.formats(id, documentId ?? null),
    'consults:export': ({ id, documentId, format }: In<'consults:export'>) =>
      notes.export(id, format, documentId ?? null),
    'consults:askAgain': ({ id }: In<'consults:askAgain'>, actor) => commands.askAgain(id, signedIn(actor)),
    'consults:saveNote': ({ id, documentId, text }: In<'consults:saveNote'>, actor) =>
      notes.save(id, text, documentId ?? null, signedIn(actor)),
    'consults:draft': ({ id, documentId }: In<'consults:draft'>, actor) =>
      notes.draft(id, documentId ?? null, signedIn(actor)),
    'consults:saveDraft': ({ id, documentId, text }: In<'consults:saveDraft'>, actor) =>
      notes.saveDraft(id, text, documentId ?? null, signedIn(actor)),
    'consults:addDocument': ({ id, templateId, templateName, again }: In<'consults:addDocument'>, actor) =>
      commands.addDocument(id, templateId, templateName, again ?? null, signedIn(actor)),
    'consults:retryDocument': ({ id, documentId }: In<'consults:retryDocument'>, actor) =>
      commands.retryDocument(id, documentId, signedIn(actor)),
    'consults:search': ({ query }: In<'consults:search'>) => ({ ids: core.searchConsults(query) }),
    'consults:audioUrl': ({ id }: In<'consults:audioUrl'>) => ({ url: core.options.audioUrl(id) }),
    'agents:ddx': ({ input }: In<'agents:ddx'>, actor) => clinical.ddx(input, signedIn(actor)),
    'agents:treatmentPlan': ({ input, allowWithoutSpecies }: In<'agents:treatmentPlan'>, actor) =>
      clinical.treatmentPlan(input, allowWithoutSpecies ?? false, signedIn(actor)),
    'agents:medication': ({ input }: In<'agents:medication'>, actor) => clinical.medication(input, signedIn(actor)),
    'org:setNotificationEmail': ({ email }: In<'org:setNotificationEmail'>, actor) =>
      clinical.setNotificationEmail(email, signedIn(actor)),
    'org:setScribeWebhook': ({ active }: In<'org:setScribeWebhook'>, actor) =>
      clinical.setScribeWebhook(active, signedIn(actor)),
    'org:get': (_input: In<'org:get'>, actor) => clinical.organization(signedIn(actor)),
    'org:registerWebhook': ({ url, secret }: In<'org:registerWebhook'>, actor) =>
      clinical.registerWebhook({ url, secret }, signedIn(actor)),
    'clipboard:write': (flavours: In<'clipboard:write'>) => notes.copy(flavours),
    'update:get': () => updates.info(),
    'settings:retentionPreview': ({ retentionDays }: In<'settings:retentionPreview'>) =>
      retention.preview(retentionDays),
    'update:restart': () => updates.restart(),
    'consults:askDdx': ({ id, input }: In<'consults:askDdx'>, actor) => core.answers.askDdx(id, input, signedIn(actor)),
    'consults:answers': ({ id }: In<'consults:answers'>) => core.answers.list(id),
    'consults:trail': async ({ id }: In<'consults:trail'>) => ({ entries: await core.trail.read(id) }),
    'consults:noteUsed': ({ id, documentId, action }: In<'consults:noteUsed'>) =>
      notes.used(id, action, documentId ?? null),
    'session:switchUser': () => calls.switchUser(),
    'consults:chat': ({ id, documentId, message }: In<'consults:chat'>, actor) =>
      core.conversation.ask(id, message, documentId ?? null, signedIn(actor)),
    'consults:chatTurns': ({ id }: In<'consults:chatTurns'>, actor) => core.conversation.list(id, signedIn(actor)),
    'clinic:list': () => core.clinic.view(),
    'clinic:refresh': (_input: In<'clinic:refresh'>, actor) => core.clinic.refresh(actor && actorAccount(actor)),
    'clinic:note': ({ key }: In<'clinic:note'>) => core.clinic.note(key),
    'clinic:noteFormats': ({ key }: In<'clinic:noteFormats'>) => core.clinic.formats(key),
    'clinic:export': ({ key, format }: In<'clinic:export'>) => core.clinic.export(key, format),
    'recording:pets': ({ id, pets }: In<'recording:pets'>) => recorder.pets(id, pets),
    'clinic:chat': ({ key, message }: In<'clinic:chat'>, actor) =>
      core.clinicConversation.ask(key, message, signedIn(actor)),
    'clinic:chatTurns': ({ key }: In<'clinic:chatTurns'>, actor) => core.clinicConversation.list(key, signedIn(actor)),
    'consults:revision': () => core.consultsRevision(),
    'recorder:listening': (_input: In<'recorder:listening'>, actor) => core.recorderCommands.listen(actor),
  };
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
  if (e instanceof InputError || e instanceof SettingsError) return { code: 'invalid_input', message: e.message };
  if (e instanceof TrailError) return { code: e.code, message: e.message, retryable: true };
  if (e instanceof RecordingError || e instanceof JobError) return { code: e.code, message: e.message };
  // A disk error from anywhere else (a job or the settings being saved): its own code and a
  // sentence, never the errno text with the file's path.
  const disk = diskErrorCode(e);
  if (disk) return { code: disk, message: diskErrorMessage(disk), retryable: true };
  return { code: 'internal', message: `Something went wrong inside the app: ${(e as Error)?.message ?? String(e)}` };
}

/**
 * What each call that names a consult needs of the gate (consult-gate.ts). Every channel whose
 * input has an `id` must be listed: createHandlers refuses to start otherwise, so a new call
 * cannot forget the gate.
 */
const GATE: Partial<Record<InvokeChannel, 'full' | 'claim' | 'recording'>> = {
  'recording:chunk': 'recording',
  'recording:pause': 'recording',
  'recording:resume': 'recording',
  'recording:stop': 'recording',
  'recording:update': 'full',
  'consults:submit': 'full',
  'consults:retry': 'full',
  'consults:claim': 'claim',
  'consults:delete': 'full',
  'consults:note': 'full',
  'consults:noteFormats': 'full',
  'consults:export': 'full',
  'consults:askAgain': 'full',
  'consults:saveNote': 'full',
  'consults:draft': 'full',
  'consults:saveDraft': 'full',
  'consults:addDocument': 'full',
  'consults:retryDocument': 'full',
  'consults:audioUrl': 'full',
  'consults:askDdx': 'full',
  'consults:answers': 'full',
  'consults:trail': 'full',
  'consults:noteUsed': 'full',
  'consults:chat': 'full',
  'consults:chatTurns': 'full',
  'recording:pets': 'recording',
};

/** What only the vet who recorded a consult may do (ConsultGate.ownerOnly). */
const OWNER_ONLY: Partial<Record<InvokeChannel, OwnerAction>> = {
  'consults:delete': 'delete',
  'consults:submit': 'send',
  'consults:retry': 'send',
  'recording:update': 'change',
};

/**
 * Calls whose answer is the computer's, not a vet's: the sign-in itself, the recorder's own calls
 * (a recording goes on through a switch of user, and its audio is kept whoever is in front), a
 * change of settings (a change of service signs the vet out by design), the clipboard and
 * updates. Every other answer is the asking vet's alone (createHandlers).
 */
const ANSWERS_THE_COMPUTER = new Set<InvokeChannel>([
  'app:info',
  'settings:update',
  'session:get',
  'session:signIn',
  'session:signOut',
  'session:switchUser',
  'recording:start',
  'recording:chunk',
  'recording:pause',
  'recording:resume',
  'recording:stop',
  'recording:pets',
  'clipboard:write',
  'update:get',
  'update:restart',
]);

/** What the window is told in place of an answer that came after the vet who asked had left. */
export const ANSWER_FOR_ANOTHER_VET =
  'This was asked by the vet who was signed in before; its answer is kept for them and not shown here.';

/** Whether a channel's input has an `id` (a consult's). */
function schemaNamesConsult(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'id' in shape;
}

export function createHandlers(core: AppCore): HandlerTable {
  const impl = implementations(core);
  // The one check of every answer, and of every refusal: one that lands after the vet who asked
  // has left the PC is theirs (kept with the consult where the call keeps it: a chat turn, an
  // agent's answer), never shown to the next vet, whose window this now is.
  const left = (channel: InvokeChannel, actor: Actor | null) =>
    actor !== null && !core.actors.inFront(actor) && !ANSWERS_THE_COMPUTER.has(channel);
  const table: Partial<Record<InvokeChannel, (input: unknown) => Promise<IpcResult<unknown>>>> = {};
  for (const channel of Object.keys(invokeContract) as InvokeChannel[]) {
    const schema = invokeContract[channel].input;
    const run = impl[channel] as (input: unknown, actor: Actor | null) => unknown;
    const need = GATE[channel];
    if (!need && schemaNamesConsult(schema))
      throw new Error(`ipc ${channel} names a consult but asks nothing of the gate`);
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
      if (need && !core.gate.permits((parsed.data as { id: string }).id, need, actor)) {
        return { ok: false, error: { code: 'not_found', message: NOT_THEIRS } };
      }
      const ownerOnly = OWNER_ONLY[channel];
      const refusal = ownerOnly ? core.gate.ownerOnly((parsed.data as { id: string }).id, ownerOnly, actor) : null;
      if (refusal) return { ok: false, error: { code: 'not_owner', message: refusal } };
      try {
        const data = await run(parsed.data, actor);
        if (left(channel, actor)) return { ok: false, error: { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET } };
        return { ok: true, data };
      } catch (e) {
        const error: IpcError = left(channel, actor)
          ? { code: 'signed_out', message: ANSWER_FOR_ANOTHER_VET }
          : toIpcError(e);
        core.log[error.code === 'internal' ? 'error' : 'debug'](`ipc ${channel}: ${error.code}: ${error.message}`);
        return { ok: false, error };
      }
    };
  }
  return table as HandlerTable;
}
