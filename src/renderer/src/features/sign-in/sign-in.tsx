// The first screen when nobody is signed in. Success needs no handling here: main announces
// the new session ('session:changed') and the shell swaps this screen for the app.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { useSession } from '../../stores/session.ts';
import { ServiceChoice } from './service-choice.tsx';
import { endedNotice, signInProblem, type SignInProblem } from './sign-in-messages.ts';
import { useOnline } from '../../hooks/use-online.ts';
import { useNextSignIn } from '../../stores/switch-user.ts';
import { TextField } from '../../components/text-field.tsx';
import './sign-in.css';

interface FieldErrors {
  email?: string;
  password?: string;
}

function validate(email: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  if (email.trim() === '') errors.email = 'Enter your e-mail address.';
  if (password === '') errors.password = 'Enter your password.';
  return errors;
}

export function SignIn() {
  const app = useSession((s) => s.app);
  const endedBecause = useSession((s) => s.session.endedBecause);
  const online = useOnline();
  // After "Switch user" (or "Sign in as …" on a waiting consult): who was signed out, and whose
  // e-mail to fill in.
  const next = useNextSignIn((s) => s.next);
  const [email, setEmail] = useState(next?.email ?? '');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [problem, setProblem] = useState<SignInProblem | null>(null);
  const [busy, setBusy] = useState(false);
  // Where the cursor goes once a failed attempt has re-enabled the form (a new object each time).
  const [focusAfterError, setFocusAfterError] = useState<{ on: 'password' | 'submit' } | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const submitRef = useRef<HTMLButtonElement>(null);
  const ids = useId();

  useEffect(() => (next?.email ? passwordRef : emailRef).current?.focus(), [next]);
  useEffect(() => {
    if (focusAfterError) (focusAfterError.on === 'password' ? passwordRef : submitRef).current?.focus();
  }, [focusAfterError]);

  const demo = app?.sandbox?.demo ?? null;
  const notice = endedNotice(endedBecause);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy) return;
    const errors = validate(email, password);
    setFieldErrors(errors);
    setProblem(null);
    if (errors.email || errors.password) {
      (errors.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setBusy(true);
    try {
      const session = await api.session.signIn({ email: email.trim(), password });
      if (!session.signedIn) setBusy(false);
      else useNextSignIn.setState({ next: null });
    } catch (error) {
      const p = signInProblem(error);
      setProblem(p);
      setBusy(false);
      // A wrong password is retyped, not edited; anything else is retried as it stands.
      if (p.wrongCredentials) setPassword('');
      setFocusAfterError({ on: p.wrongCredentials ? 'password' : 'submit' });
    }
    // Signed in: this screen goes away when main's event arrives; it stays busy until then.
  }

  function fillDemo() {
    if (!demo) return;
    setEmail(demo.email);
    setPassword(demo.password);
    setFieldErrors({});
    setProblem(null);
    submitRef.current?.focus();
  }

  // What the two fields have alike: named by their key, required, and locked while signing in.
  const field = (key: keyof FieldErrors, label: string, value: string, onValue: (typed: string) => void) => ({
    id: `${ids}-${key}`,
    label,
    name: key,
    error: fieldErrors[key],
    value,
    onValue,
    'aria-required': 'true' as const,
    disabled: busy,
  });

  return (
    <main className="sign-in-screen">
      <section className="panel sign-in-card" aria-labelledby={`${ids}-title`}>
        <h1 id={`${ids}-title`} className="sign-in-title">
          {app?.name ?? 'Vet Scribe'}
        </h1>
        <p className="muted sign-in-lead">Sign in to record consults and read their notes.</p>

        {next?.note && (
          <p className="notice" role="status">
            {next.note}
          </p>
        )}
        {notice && (
          <p className="notice notice-warning" role="status">
            {notice}
          </p>
        )}
        {!online && !demo && (
          <p className="notice notice-warning" role="status">
            This computer seems to be offline. Signing in needs the service; recordings already made are kept.
          </p>
        )}

        {demo && (
          <div className="sign-in-demo" role="note" aria-label="Sandbox service">
            <p>
              <strong>Sandbox</strong> — demo account: <code>{demo.email}</code> / <code>{demo.password}</code>. Example
              notes only, not for real patients.
            </p>
            <button type="button" onClick={fillDemo} disabled={busy}>
              Use the demo account
            </button>
          </div>
        )}

        <form onSubmit={submit} noValidate aria-busy={busy}>
          <TextField
            {...field('email', 'Email', email, setEmail)}
            inputRef={emailRef}
            type="email"
            autoComplete="username"
          />
          <TextField
            {...field('password', 'Password', password, setPassword)}
            inputRef={passwordRef}
            type="password"
            autoComplete="current-password"
          />

          {problem && (
            <div className="notice notice-error sign-in-problem" role="alert">
              <p>{problem.message}</p>
              {problem.detail && <p className="sign-in-detail">{problem.detail}</p>}
            </div>
          )}

          <button ref={submitRef} type="submit" className="primary big sign-in-submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
        </form>

        <ServiceChoice disabled={busy} />

        {app && (
          <footer className="sign-in-footer">
            {/* Said once: the description itself says when it does not last (no second warning). */}
            <p className="field-hint">Your sign-in is kept {app.secretStore.description}.</p>
          </footer>
        )}
      </section>
    </main>
  );
}
