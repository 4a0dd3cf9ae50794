// What the sign-in screen says when a sign-in fails or a session ended: one sentence a vet can
// act on, chosen by the error's code, with main's own words kept as the detail.
import { ApiCallError } from '../../api.ts';
import type { SessionInfo } from '../../../../shared/ipc.ts';

export interface SignInProblem {
  message: string;
  detail: string | null;
  /** The password was wrong: clear it and put the cursor back there. */
  wrongCredentials: boolean;
}

const UNREACHABLE = new Set(['network', 'timeout', 'host_unreachable']);

/**
 * Main words a network failure as "The service cannot be reached… (cause)": keep the cause, in
 * its own words ("The address looks wrong (no such host: …)"), without the operation's prefix.
 */
export function causeOf(message: string): string {
  const wrapped = /^The service (?:cannot be reached|did not answer in time)\.[^(]*\((.*)\)\s*$/s.exec(message);
  if (wrapped?.[1]) return wrapped[1].replace(/^Could not reach the service for [^:]+:\s*/, '');
  const inParens = /\(([^()]+)\)\s*\.?\s*$/.exec(message);
  return inParens?.[1] ?? message;
}

export function signInProblem(error: unknown): SignInProblem {
  if (error instanceof ApiCallError) {
    if (error.code === 'invalid_credentials')
      return { message: 'That e-mail and password do not match an account.', detail: null, wrongCredentials: true };
    if (UNREACHABLE.has(error.code)) {
      return {
        message: 'The service cannot be reached. Check the network connection and try again.',
        detail: causeOf(error.message),
        wrongCredentials: false,
      };
    }
    if (error.retryable)
      return {
        message: error.message,
        detail: 'This is usually brief: try again in a moment.',
        wrongCredentials: false,
      };
    return { message: error.message, detail: null, wrongCredentials: false };
  }
  return { message: error instanceof Error ? error.message : String(error), detail: null, wrongCredentials: false };
}

export function endedNotice(endedBecause: SessionInfo['endedBecause']): string | null {
  if (endedBecause === 'expired')
    return 'Your session expired. Sign in again — your recordings are kept and will be sent after you sign in.';
  if (endedBecause === 'revoked')
    return 'You were signed out for safety because your sign-in was used elsewhere. Sign in again — your recordings are kept.';
  return null;
}
