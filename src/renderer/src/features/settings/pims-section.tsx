// The clinic's practice-management system (PIMS): this computer's Provet address and client ID,
// and the vet's own sign-in to it. "Sign in to Provet" hands both to main, which opens Provet's
// own sign-in page in the browser and answers only once the vet signed in there (or why not);
// main keeps the address and client ID only after a sign-in succeeded, so a wrong one is never
// half saved. No token reaches the window: it learns only whether, and as whom, the vet is signed in.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { PimsSetup, PimsStatus } from '../../../../shared/pims.ts';
import { api } from '../../api.ts';
import { TextField } from '../../components/text-field.tsx';
import { useCheckedForm, type FieldProblems } from '../../hooks/use-checked-form.ts';
import { pimsStatusCall, usePims } from '../../stores/pims.ts';
import { SettingsSection } from './section.tsx';
import { useMainCall } from './setting-save.tsx';

/** How often the status is read again while a sign-in this view did not start is under way. */
const SIGN_IN_CHECK_MS = 2000;

type Problems = FieldProblems<'address' | 'clientId'>;

/** The first check, next to the fields; main checks again, and Provet has the last word. */
export function pimsProblems(address: string, clientId: string): Problems {
  const problems: Problems = {};
  const typed = address.trim();
  if (typed === '') problems.address = 'Enter the Provet address, like https://provetcloud.com/1234.';
  else if (!/^https?:\/\/[^\s/]+\/\S+/i.test(typed))
    problems.address =
      'The Provet address is the whole address of the clinic’s Provet, with its number, like https://provetcloud.com/1234.';
  if (clientId.trim() === '') problems.clientId = 'Enter the client ID that Provet’s support gave the clinic.';
  return problems;
}

export function PimsSection() {
  const status = usePims((s) => s.status);
  const [readError, setReadError] = useState<string | null>(null);
  const [reads, setReads] = useState(0);

  // Read afresh when Settings opens: another vet, or the browser, may have changed it since.
  useEffect(() => {
    let current = true;
    usePims
      .getState()
      .load()
      .catch((e: unknown) => current && setReadError((e as Error).message));
    return () => {
      current = false;
    };
  }, [reads]);

  return (
    <SettingsSection title="Practice-management system">
      <p className="muted">
        Connected to the clinic’s Provet Cloud, the Record view lists today’s appointments from Provet, and a note you
        have read goes into the patient’s record in Provet when you choose “Send to Provet”. Each vet signs in with
        their own Provet account; without a sign-in nothing changes.
      </p>
      {status ? (
        // Filled in again when the setup in force changes (a sign-in kept a new one).
        <PimsForm key={setupKey(status)} status={status} />
      ) : readError ? (
        <div className="notice notice-error" role="alert">
          <p>The practice-management system’s settings could not be read. {readError}</p>
          <button
            type="button"
            onClick={() => {
              setReadError(null);
              setReads((n) => n + 1);
            }}
          >
            Read them again
          </button>
        </div>
      ) : (
        <p className="muted" role="status" aria-busy="true">
          Reading the practice-management system’s settings…
        </p>
      )}
    </SettingsSection>
  );
}

function setupKey(status: PimsStatus): string {
  const setup = status.setup ?? status.sandbox;
  return setup ? `${setup.address}\n${setup.clientId}` : '';
}

function PimsForm({ status }: { status: PimsStatus }) {
  const offered: PimsSetup | null = status.setup ?? status.sandbox;
  const [address, setAddress] = useState(offered?.address ?? '');
  const [clientId, setClientId] = useState(offered?.clientId ?? '');
  const { problems, inputRef, passes } = useCheckedForm(['address', 'clientId'] as const);
  const { pending, error, setError, run } = useMainCall<'sign-in' | 'cancel' | 'sign-out'>();
  // The vet's own Cancel: the sign-in's refusal that follows is no news to them.
  const cancelled = useRef(false);
  const ids = useId();
  const name = status.name ?? 'Provet';
  const signedIn = status.signedIn;
  const waiting = pending === 'sign-in' || (status.signingIn && pending === undefined);

  // A sign-in started before this view opened (or in another window) ends without an answer here:
  // the status is read again until it has.
  useEffect(() => {
    if (!status.signingIn || pending !== undefined) return;
    const timer = setInterval(
      () =>
        void usePims
          .getState()
          .load()
          .catch(() => undefined),
      SIGN_IN_CHECK_MS,
    );
    return () => clearInterval(timer);
  }, [status.signingIn, pending]);

  async function signIn(e: FormEvent) {
    e.preventDefault();
    if (pending !== undefined || waiting || signedIn) return;
    setError(null);
    if (!passes(pimsProblems(address, clientId))) return;
    cancelled.current = false;
    await run(
      'sign-in',
      () => pimsStatusCall(() => api.pims.signIn({ address: address.trim(), clientId: clientId.trim() })),
      // Said under the fields unless the vet cancelled it themselves.
      (message) => (cancelled.current ? '' : message),
    );
  }

  async function cancel() {
    cancelled.current = true;
    try {
      await pimsStatusCall(() => api.pims.cancelSignIn());
    } catch (e) {
      cancelled.current = false;
      setError((e as Error).message);
    }
  }

  async function signOut() {
    if (pending !== undefined) return;
    await run('sign-out', () => pimsStatusCall(() => api.pims.signOut()));
  }

  // What the two fields have alike: their problem, and read-only while signing in or signed in.
  const field = (key: keyof Problems, label: string, value: string, onValue: (typed: string) => void) => ({
    id: `${ids}-${key}`,
    label,
    error: problems[key],
    value,
    onValue,
    readOnly: waiting || signedIn !== null || pending !== undefined,
    autoComplete: 'off',
    spellCheck: false,
  });

  return (
    <form className="pims-form" onSubmit={signIn} noValidate aria-busy={pending !== undefined}>
      <TextField
        {...field('address', `${name} address`, address, setAddress)}
        inputRef={inputRef('address')}
        type="url"
        placeholder="https://provetcloud.com/1234"
        hint={
          status.setup === null && status.sandbox !== null
            ? 'Filled in with the built-in sandbox’s Provet, to try it out.'
            : 'As in the browser when using Provet: https://<domain>/<provet_id>.'
        }
      />
      <TextField
        {...field('clientId', 'Client ID', clientId, setClientId)}
        inputRef={inputRef('clientId')}
        hint={
          signedIn
            ? `Sign out of ${name} to change the address or the client ID.`
            : 'Provet’s support issues it when the clinic registers Vet Scribe.'
        }
      />
      {error && (
        <p className="notice notice-error pims-error" role="alert">
          {error}
        </p>
      )}
      {waiting && (
        <p className="notice pims-waiting" role="status">
          Finish signing in on {name}’s page in your browser…
        </p>
      )}
      {signedIn && (
        <p className="settings-ok" role="status">
          {signedIn.name ? `Signed in to ${name} as ${signedIn.name}.` : `Signed in to ${name}.`}
        </p>
      )}
      <div className="row">
        {signedIn ? (
          <button type="button" aria-disabled={pending !== undefined} onClick={() => void signOut()}>
            {pending === 'sign-out' ? `Signing out of ${name}…` : `Sign out of ${name}`}
          </button>
        ) : (
          <button type="submit" className="primary" aria-disabled={waiting || pending !== undefined}>
            Sign in to {name}
          </button>
        )}
        {waiting && (
          <button type="button" onClick={() => void cancel()}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
