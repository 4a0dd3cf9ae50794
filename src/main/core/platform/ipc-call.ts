// How a part of the engine declares the IPC calls it answers: each call with the rules that
// guard it, next to the code that runs it (consults/calls.ts, clinic/calls.ts, …). The
// contract (src/shared/ipc.ts) gives each channel its input schema and answer type, which the
// window is typed from; a declaration here adds what only the engine decides:
// - `access`: what the vet must be allowed to do with the consult the call names (the gate,
//   consult-gate.ts). A call whose input has an `id` cannot be declared without it: the type
//   below requires it, and createHandlers checks it again at start.
// - `ownerOnly`: what only the vet who recorded the consult may do (ConsultGate.ownerOnly).
// - `answers: 'computer'`: the answer is the computer's, not a vet's (the sign-in, the recorder,
//   the clipboard…), so it is given even when the vet who asked has left the PC. Every other
//   answer is the asking vet's alone.
import type { z } from 'zod';
import type { ConsultOwner, invokeContract, InvokeChannel, InvokeOutput } from '../../../shared/ipc.ts';

/** The vet a call acts for (sign-in/actor.ts names it `Actor`): an account of one service. */
type Actor = Readonly<ConsultOwner>;

/**
 * What only the vet who recorded a consult may do: delete it, file its note in the clinic's
 * practice-management system (with their own sign-in there), and send, change, retry or ask
 * again for it until it is sent.
 */
export type OwnerAction = 'delete' | 'file' | 'send' | 'change' | 'retry' | 'askAgain';

/** What a call that names a consult needs of the gate: see `ConsultGate.permits`. */
export type CallAccess = 'full' | 'claim' | 'recording';

/** A channel's input as its schema parsed it. */
export type CallInput<C extends InvokeChannel> = z.output<(typeof invokeContract)[C]['input']>;

/** Whether a channel's input names a consult (has an `id`). */
type NamesConsult<C extends InvokeChannel> = CallInput<C> extends { id: string } ? true : false;

type Guard<C extends InvokeChannel> =
  NamesConsult<C> extends true
    ? { access: CallAccess; ownerOnly?: OwnerAction }
    : { access?: undefined; ownerOnly?: undefined };

export type Call<C extends InvokeChannel> = Guard<C> & {
  /** Whose answer it is: the asking vet's (the default) or the computer's. */
  answers?: 'computer';
  /** Runs the call for `actor`: the vet it acts for, read once as it came in (null: no one signed in). */
  run(input: CallInput<C>, actor: Actor | null): Promise<InvokeOutput<C>> | InvokeOutput<C>;
};

/** A part's declarations: one per channel it answers. */
export type Calls<C extends InvokeChannel> = { [K in C]: Call<K> };

/** The channels of one namespace of the contract (`consults`, `clinic`, …). */
export type ChannelsOf<N extends string> = Extract<InvokeChannel, `${N}:${string}`>;
