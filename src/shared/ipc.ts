// The one IPC contract between the window and main. Every channel is named once, with the
// schema of its input (main parses every argument with it) and the type of its answer, in the
// file of its domain under `contract/` (a consult's calls in `contract/consults.ts`, the PIMS's in
// `contract/pims.ts`, …); this module puts the parts together into one table. The preload, the
// renderer's typed client and the browser test host's bridge are all generated from it (the
// preload is given the channel names by main at run time: bridge-channels.ts). Answers cross as
// data: { ok: true, data } or { ok: false, error: { code, message } }. No channel carries a token.
import type { z } from 'zod';
import {
  agentsInvokes,
  clinicEvents,
  clinicInvokes,
  computerEvents,
  computerInvokes,
  consultsEvents,
  consultsInvokes,
  pimsEvents,
  pimsInvokes,
  relayEvents,
  relayInvokes,
} from './contract/index.ts';

// The shapes the calls answer, where the window and main have always found them.
export type {
  AppInfo,
  ChatTurn,
  ConsultInfo,
  ConsultOwner,
  ConsultStage,
  ConsultsRevision,
  KeptAnswer,
  NoteExport,
  NoteFormats,
  Notice,
  RecordingFacts,
  RecordingInfo,
  RecordingState,
  SessionInfo,
  TreatmentPlanAnswer,
} from './contract/index.ts';
export { MAX_NOTE_FORMAT_CHARS, RECORDING_STATES } from './contract/index.ts';

// The client (createApi, ApiCallError) lives in ipc-client.ts, which imports this module's
// types: importing it back here would make a cycle, so only the limits are re-exported.
export { MAX_AGENT_INPUT, MAX_CHUNK_BYTES } from './limits.ts';

/** Every call the window can make, domain by domain. */
export const invokeContract = {
  ...computerInvokes,
  ...consultsInvokes,
  ...agentsInvokes,
  ...clinicInvokes,
  ...pimsInvokes,
  ...relayInvokes,
} as const;

export type InvokeChannel = keyof typeof invokeContract;
export type InvokeInput<C extends InvokeChannel> = z.input<(typeof invokeContract)[C]['input']>;
export type InvokeOutput<C extends InvokeChannel> = (typeof invokeContract)[C]['output'];

/** Events main sends to the window; each payload is plain data. */
export const eventContract = {
  ...computerEvents,
  ...consultsEvents,
  ...clinicEvents,
  ...pimsEvents,
  ...relayEvents,
} as const;
export type EventPayloads = { -readonly [E in keyof typeof eventContract]: (typeof eventContract)[E] };
export type EventChannel = keyof EventPayloads;
/** Every channel of the contract, read off the tables above: there is no other list. */
export const EVENT_CHANNELS = Object.keys(eventContract) as readonly EventChannel[];
export const INVOKE_CHANNELS = Object.keys(invokeContract) as readonly InvokeChannel[];

export type IpcErrorCode =
  | 'invalid_input'
  | 'forbidden_sender'
  | 'unknown_channel'
  | 'signed_out'
  | 'service'
  | 'not_found'
  | 'conflict'
  | 'internal';
export interface IpcError {
  code: IpcErrorCode | string;
  message: string;
  /** Whether trying again later may work (the network, the service being busy). */
  retryable?: boolean;
}
export type IpcResult<T> = { ok: true; data: T } | { ok: false; error: IpcError };

type Namespace<C extends string> = C extends `${infer N}:${string}` ? N : never;

/** What the preload hands the window: the raw envelopes, one function per channel. */
export type BridgeApi = {
  invoke<C extends InvokeChannel>(channel: C, input: InvokeInput<C>): Promise<IpcResult<InvokeOutput<C>>>;
  on<E extends EventChannel>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
  /**
   * Where the engine can go away while the window stays (the browser host): `false` when its
   * event stream is lost, `true` when it is back (the window then loads its state again).
   * Absent in Electron, where the window lives and dies with main.
   */
  onLink?(listener: (up: boolean) => void): () => void;
};

/** The typed client the window uses: `api.session.signIn({...})`, throwing ApiCallError. */
export type Api = {
  [N in Namespace<InvokeChannel>]: {
    [C in InvokeChannel as C extends `${N}:${infer M}` ? M : never]: InvokeInput<C> extends undefined
      ? () => Promise<InvokeOutput<C>>
      : (input: InvokeInput<C>) => Promise<InvokeOutput<C>>;
  };
} & { on: BridgeApi['on'] };

/** Turns a message of zod issues into one sentence that names each wrong field. */
export function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => `${i.path.length ? i.path.map(String).join('.') : 'input'} ${i.message}`).join('; ');
}
