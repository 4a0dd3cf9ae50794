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

type In<C extends InvokeChannel> = InvokeInput<C>;
import type { AppCore } from './app-core.ts';
import { InputError } from './clinical.ts';
import { JobError, ownerOf, PATIENT_NAME_REQUIRED } from './jobs/pipeline.ts';
import { RecordingError } from './recordings/index.ts';
import { diskErrorCode, diskErrorMessage } from './disk-errors.ts';
import { isNetworkSetupFailure, ServiceError } from './service-errors.ts';
import { SignedOutError } from './session.ts';
import { SettingsError } from './settings.ts';

const MEDICATION_EMPTY = 'Type the drug and the species first (for example: meloxicam, dog).';
const NAME_LOCKED = "The consult has been sent; the patient's name can no longer be changed.";
const DESCRIPTION_LOCKED = "The consult has been sent; the visit's description can no longer be changed.";

type Impl = { [C in InvokeChannel]: (input: never) => Promise<InvokeOutput<C>> | InvokeOutput<C> };
export type HandlerTable = { [C in InvokeChannel]: (input: unknown) => Promise<IpcResult<InvokeOutput<C>>> };

function implementations(core: AppCore): Impl {
  // Every call that names a consult has passed the gate before it gets here (createHandlers);
  // this answers with the consult as the account may have it.
  const consultOrThrow = (id: string) => core.consultFor(id);
  return {
    'app:info': () => core.appInfo(),
    'session:get': () => {
      const s = core.session.state();
      return { signedIn: s.signedIn, user: s.user, endedBecause: s.endedBecause === 'user' ? null : s.endedBecause };
    },
    'session:signIn': async ({ email, password }: In<'session:signIn'>) => {
      const s = await core.session.signIn(email, password);
      return { signedIn: s.signedIn, user: s.user, endedBecause: null };
    },
    'session:signOut': async () => {
      const s = await core.session.signOut('user');
      return { signedIn: s.signedIn, user: s.user, endedBecause: null };
    },
    'settings:get': () => core.settingsView(),
    'settings:update': (patch: In<'settings:update'>) => core.updateSettings(patch),
    'templates:list': async ({ page, limit = 50 }: In<'templates:list'>) => {
      const answer = await core.session.withToken((t) => core.client.templates(t, page, limit));
      const total = answer.total ?? null;
      // The published service says has_next and gives no total; an older answer may give a total.
      const hasMore = answer.hasNext ?? (total !== null ? page * limit < total : answer.items.length === limit);
      return { items: answer.items, page, total, hasMore };
    },
    'recording:start': async ({
      mimeType,
      label,
      patientName,
      description,
      templateId,
      ownerConsented,
    }: In<'recording:start'>) => {
      // The consult is the signed-in account's: it is sent with that sign-in only.
      const user = core.session.state().user;
      return core.remember(
        await core.recordings.start({
          mimeType,
          label: label || null,
          patientName: patientName ?? null,
          description: description ?? null,
          templateId: templateId ?? null,
          owner: user ? ownerOf(user, core.serviceKey()) : null,
          ownerConsented: ownerConsented === true,
        }),
      );
    },
    'recording:chunk': async ({ id, seq, data, elapsedMs }: In<'recording:chunk'>) => {
      const meta = await core.recordings.appendChunk(id, seq, data, elapsedMs);
      core.remember(meta);
      return { bytes: meta.bytes, chunks: meta.chunks };
    },
    'recording:pause': async ({ id }: In<'recording:pause'>) => core.remember(await core.recordings.pause(id)),
    'recording:resume': async ({ id }: In<'recording:resume'>) => core.remember(await core.recordings.resume(id)),
    'recording:stop': async ({ id, durationMs }: In<'recording:stop'>) => {
      const meta = core.remember(await core.recordings.finish(id, durationMs === undefined ? {} : { durationMs }));
      // With a template chosen before or during the consult, it goes to be scribed at once; without
      // the patient's name it waits for it (recording:update sends it then). The pipeline sends
      // it with its owner's sign-in only; one no one owns yet waits for a vet's claim.
      if (meta.templateId && meta.patientName) {
        await core.pipeline.submit(id, meta.templateId);
        if (core.gate.allows(id)) await core.updateSettings({ lastTemplateId: meta.templateId });
      }
      // The audio is kept whoever is signed in now; the consult itself is shown only to its own.
      if (core.gate.access(id) === 'none') throw new RecordingError('not_found', STOPPED_NOT_YOURS);
      return consultOrThrow(id);
    },
    'recording:update': async ({
      id,
      label,
      patientName,
      description,
      templateId,
      listName,
    }: In<'recording:update'>) => {
      // The service was given the name and description with the recording session: changing
      // them here afterwards would leave the note written for another name.
      if (core.pipeline.sent(id)) {
        if (patientName !== undefined && patientName !== consultOrThrow(id).recording.patientName)
          throw new JobError('conflict', NAME_LOCKED);
        if (description !== undefined && (description || null) !== consultOrThrow(id).recording.description)
          throw new JobError('conflict', DESCRIPTION_LOCKED);
      }
      const meta = core.remember(
        await core.recordings.update(id, {
          ...(label !== undefined ? { label: label || null } : {}),
          ...(patientName !== undefined ? { patientName } : {}),
          ...(description !== undefined ? { description: description || null } : {}),
          ...(templateId !== undefined ? { templateId } : {}),
          ...(listName !== undefined ? { listName: listName || null } : {}),
        }),
      );
      if (patientName !== undefined && meta.patientName) {
        // A consult that waited for its patient's name goes on now.
        const job = core.pipeline.info(id);
        if (job) await core.pipeline.resumeWithPatientName(id);
        else if (meta.state === 'finished' && meta.templateId) await core.pipeline.submit(id, meta.templateId);
      }
      // Every window shows the new name, not only the one that asked.
      const consult = consultOrThrow(id);
      core.emit('consult:changed', consult);
      return consult;
    },
    'consults:list': () => core.visibleConsults(),
    'consults:submit': async ({ id, templateId }: In<'consults:submit'>) => {
      const meta = await core.recordings.get(id);
      if (!meta) throw new RecordingError('not_found', NO_SUCH_CONSULT);
      if (!meta.patientName?.trim() && !core.pipeline.info(id))
        throw new JobError('invalid_input', PATIENT_NAME_REQUIRED);
      if (meta.templateId !== templateId) core.remember(await core.recordings.update(id, { templateId }));
      if (meta.state === 'recovered') core.remember(await core.recordings.finish(id));
      await core.pipeline.submit(id, templateId);
      await core.updateSettings({ lastTemplateId: templateId });
      return consultOrThrow(id);
    },
    'consults:retry': async ({ id }: In<'consults:retry'>) => {
      await core.pipeline.retry(id);
      return consultOrThrow(id);
    },
    'consults:claim': ({ id }: In<'consults:claim'>) => core.claim(id),
    'consults:delete': async ({ id }: In<'consults:delete'>) => {
      await core.deleteConsult(id);
      return { deleted: true as const };
    },
    'consults:note': ({ id, documentId }: In<'consults:note'>) => core.noteView(id, documentId ?? null),
    'consults:noteFormats': ({ id, documentId }: In<'consults:noteFormats'>) =>
      core.noteFormats(id, documentId ?? null),
    'consults:export': ({ id, documentId, format }: In<'consults:export'>) =>
      core.exportNote(id, format, documentId ?? null),
    'consults:askAgain': async ({ id }: In<'consults:askAgain'>) => {
      await core.pipeline.askAgain(id);
      return consultOrThrow(id);
    },
    // The note and its drafts are written in the consult's turn, where a delete is too: a save
    // asked after a delete finds no consult, and none is written back into a deleted one.
    'consults:saveNote': ({ id, documentId, text }: In<'consults:saveNote'>) =>
      core.pipeline.inTurn(id, async () => {
        consultOrThrow(id);
        await core.pipeline.saveEditedNote(id, text, documentId ?? null);
        // The draft was for this save: once the note holds it, it is done.
        await core.drafts.put(draftKey(id, documentId), null);
        return { saved: true as const };
      }),
    'consults:draft': ({ id, documentId }: In<'consults:draft'>) => {
      if (documentId !== undefined) core.pipeline.note(id, documentId);
      return core.drafts.get(draftKey(id, documentId));
    },
    'consults:saveDraft': ({ id, documentId, text }: In<'consults:saveDraft'>) =>
      core.pipeline.inTurn(id, () => {
        consultOrThrow(id);
        // A draft for a document the consult does not have is refused, not kept.
        if (documentId !== undefined) core.pipeline.note(id, documentId);
        return core.drafts.put(draftKey(id, documentId), text);
      }),
    'consults:addDocument': async ({ id, templateId, templateName }: In<'consults:addDocument'>) => {
      await core.pipeline.addDocument(id, templateId, templateName?.trim() || null);
      return consultOrThrow(id);
    },
    'consults:retryDocument': async ({ id, documentId }: In<'consults:retryDocument'>) => {
      await core.pipeline.retryDocument(id, documentId);
      return consultOrThrow(id);
    },
    'consults:search': ({ query }: In<'consults:search'>) => ({ ids: core.searchConsults(query) }),
    'consults:audioUrl': ({ id }: In<'consults:audioUrl'>) => ({ url: core.options.audioUrl(id) }),
    'agents:ddx': ({ input }: In<'agents:ddx'>) => core.clinical.ddx(input),
    'agents:treatmentPlan': ({ input, allowWithoutSpecies }: In<'agents:treatmentPlan'>) =>
      core.clinical.treatmentPlan(input, allowWithoutSpecies ?? false),
    'agents:medication': ({ input }: In<'agents:medication'>) => {
      if (input.trim() === '') throw new InputError(MEDICATION_EMPTY);
      return core.clinical.medication(input.trim());
    },
    'org:setNotificationEmail': ({ email }: In<'org:setNotificationEmail'>) =>
      core.clinical.setNotificationEmail(email),
    'org:setScribeWebhook': ({ active }: In<'org:setScribeWebhook'>) => core.clinical.setScribeWebhook(active),
    'org:get': () => core.clinical.organization(),
    'org:registerWebhook': ({ url, secret }: In<'org:registerWebhook'>) =>
      core.clinical.registerWebhook({ url, secret }),
    'clipboard:write': (flavours: In<'clipboard:write'>) => core.writeClipboard(flavours),
    'update:get': () => core.updateInfo(),
    'settings:retentionPreview': ({ retentionDays }: In<'settings:retentionPreview'>) =>
      core.retentionPreview(retentionDays),
    'update:restart': () => core.restartForUpdate(),
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
  if (e instanceof RecordingError || e instanceof JobError) return { code: e.code, message: e.message };
  // A disk error from anywhere else (a job or the settings being saved): its own code and a
  // sentence, never the errno text with the file's path.
  const disk = diskErrorCode(e);
  if (disk) return { code: disk, message: diskErrorMessage(disk), retryable: true };
  return { code: 'internal', message: `Something went wrong inside the app: ${(e as Error)?.message ?? String(e)}` };
}

/** Where a note's unsaved edit is kept: the consult's id, and for a further document its id too. */
function draftKey(id: string, documentId: string | undefined): string {
  return documentId === undefined ? id : `${id}.document-${documentId}`;
}

const STOPPED_NOT_YOURS =
  'The recording was stopped and is kept on this computer; it belongs to the vet who started it.';
const NO_SUCH_CONSULT = 'That consult is not on this computer, or it belongs to another clinic’s account.';

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
};

/** Whether a channel's input has an `id` (a consult's). */
function schemaNamesConsult(schema: unknown): boolean {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape !== undefined && 'id' in shape;
}

export function createHandlers(core: AppCore): HandlerTable {
  const impl = implementations(core);
  const table: Partial<Record<InvokeChannel, (input: unknown) => Promise<IpcResult<unknown>>>> = {};
  for (const channel of Object.keys(invokeContract) as InvokeChannel[]) {
    const schema = invokeContract[channel].input;
    const run = impl[channel] as (input: unknown) => unknown;
    const need = GATE[channel];
    if (!need && schemaNamesConsult(schema))
      throw new Error(`ipc ${channel} names a consult but asks nothing of the gate`);
    table[channel] = async (input: unknown) => {
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
      if (need && !core.gate.permits((parsed.data as { id: string }).id, need)) {
        return { ok: false, error: { code: 'not_found', message: NO_SUCH_CONSULT } };
      }
      try {
        const data = await run(parsed.data);
        return { ok: true, data };
      } catch (e) {
        const error = toIpcError(e);
        core.log[error.code === 'internal' ? 'error' : 'debug'](`ipc ${channel}: ${error.code}: ${error.message}`);
        return { ok: false, error };
      }
    };
  }
  return table as HandlerTable;
}
