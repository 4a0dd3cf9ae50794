// A sign-in through the system browser, start to end: the loopback receiver first (its port is
// part of the redirect URI), then the PIMS's own sign-in page opened by the platform's port, then
// the code traded for tokens with the PKCE verifier. The receiver is closed whatever happens.
import type { PimsHttpOptions } from './http.ts';
import { startLoopbackReceiver } from './loopback.ts';
import { authorizeRequestUrl, exchangeCode, newPkce, newState, type OAuthClient, type TokenSet } from './oauth.ts';
import { PimsError } from './port.ts';

/**
 * Opens an address in the system browser: a port, given by whoever creates the engine (Electron's
 * shell in the app, a new tab in the browser host), so the engine imports neither.
 */
export type OpenBrowser = (url: string) => Promise<void> | void;

export interface BrowserSignInOptions {
  client: OAuthClient;
  openBrowser: OpenBrowser;
  scope?: string;
  /** How long the vet has to sign in, in ms. */
  timeoutMs?: number;
  http?: PimsHttpOptions;
  /** Aborted when the vet gives up in the app. */
  signal?: AbortSignal;
}

export async function signInWithBrowser(options: BrowserSignInOptions): Promise<TokenSet> {
  const { client } = options;
  const pkce = newPkce();
  const state = newState();
  const receiver = await startLoopbackReceiver({ state, timeoutMs: options.timeoutMs, name: client.name });
  const onAbort = () => receiver.cancel();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const url = authorizeRequestUrl(client, {
      redirectUri: receiver.redirectUri,
      state,
      challenge: pkce.challenge,
      scope: options.scope,
    });
    try {
      await options.openBrowser(url);
    } catch (e) {
      receiver.cancel();
      throw new PimsError('sign_in_failed', `The browser could not be opened for the sign-in to ${client.name}.`, {
        cause: e,
      });
    }
    const code = await receiver.code;
    return await exchangeCode(
      client,
      { code, verifier: pkce.verifier, redirectUri: receiver.redirectUri },
      options.http,
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    receiver.cancel();
    await receiver.closed;
  }
}
