// A vet's sign-in to one PIMS instance: its tokens in the secret store under that vet's own
// entry, one per app account (service address and user id) and PIMS instance, so a colleague on
// the same computer never acts with them. The access token is refreshed when it has lapsed, and
// once more when the PIMS answers 401; after that the vet is asked to sign in again. Sign-out
// removes the copy here first, then withdraws the tokens at the PIMS. No token is ever logged,
// returned to a caller outside the engine, or written anywhere but the secret store.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { SecretStore } from '../sign-in/index.ts';
import type { PimsHttpOptions } from './http.ts';
import { refreshTokens, revokeToken, type OAuthClient, type TokenSet } from './oauth.ts';
import { PimsError } from './port.ts';

/** Whose sign-in: the vet's app account, and the PIMS instance (its address). */
export interface PimsAccount {
  /** The app's service address the vet is signed in to. */
  service: string;
  userId: string;
  /** The PIMS instance's address, as its adapter normalizes it. */
  instance: string;
}

const storedTokens = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).nullable(),
  expiresAt: z.number().nullable(),
  scope: z.string().nullable(),
  obtainedAt: z.number(),
  /** The instance they were issued by, checked on load so a mixed-up entry is never used. */
  instance: z.string(),
});

/** The name of an account's entry: a hash, so no address or user id shapes a key or a file name. */
export function pimsTokensName(account: PimsAccount): `pims-tokens.${string}` {
  const digest = createHash('sha256')
    .update(JSON.stringify([account.service, account.userId, account.instance]))
    .digest('hex')
    .slice(0, 32);
  return `pims-tokens.${digest}`;
}

// A token this close to its end is refreshed before use, so it does not lapse on the way.
const EXPIRY_MARGIN_MS = 60_000;

export interface PimsTokensOptions {
  /** The app's secret store; the vet's own entry within it is taken here. */
  store: SecretStore;
  account: PimsAccount;
  client: OAuthClient;
  http?: PimsHttpOptions;
  now?: () => number;
}

export class PimsTokens {
  private readonly store: SecretStore;
  private readonly name: `pims-tokens.${string}`;
  private readonly options: PimsTokensOptions;
  private readonly now: () => number;
  // One refresh at a time: a refresh token may be used only once, and two at once would see the
  // second refused and sign the vet out for nothing.
  private refreshing: Promise<TokenSet> | null = null;

  constructor(options: PimsTokensOptions) {
    this.options = options;
    this.store = options.store.forAccount(options.account.userId);
    this.name = pimsTokensName(options.account);
    this.now = options.now ?? Date.now;
  }

  private get pimsName(): string {
    return this.options.client.name;
  }

  /** The tokens kept, or null when the vet is not signed in (or the entry cannot be read). */
  async load(): Promise<TokenSet | null> {
    const text = await this.store.loadSecret(this.name);
    if (!text) return null;
    try {
      const parsed = storedTokens.safeParse(JSON.parse(text));
      if (!parsed.success || parsed.data.instance !== this.options.account.instance) return null;
      const { instance: _instance, ...tokens } = parsed.data;
      return tokens;
    } catch {
      return null;
    }
  }

  async save(tokens: TokenSet): Promise<void> {
    await this.store.saveSecret(this.name, JSON.stringify({ ...tokens, instance: this.options.account.instance }));
  }

  async signedIn(): Promise<boolean> {
    return (await this.load()) !== null;
  }

  /** A usable access token: the kept one, or a fresh one when it has lapsed. */
  async accessToken(): Promise<string> {
    const tokens = await this.load();
    if (!tokens) throw this.signedOut();
    if (tokens.expiresAt !== null && tokens.expiresAt - EXPIRY_MARGIN_MS <= this.now()) {
      return (await this.refresh(tokens.accessToken)).accessToken;
    }
    return tokens.accessToken;
  }

  /**
   * A call made with the vet's token. A 401 is answered by one refresh and one more try; a
   * second 401, or a refresh refused, is "sign in again" (the tokens are removed, so nothing
   * keeps trying with them).
   */
  async withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    const token = await this.accessToken();
    try {
      return await call(token);
    } catch (e) {
      if (!(e instanceof PimsError) || e.code !== 'signed_out') throw e;
    }
    const fresh = await this.refresh(token);
    try {
      return await call(fresh.accessToken);
    } catch (e) {
      if (e instanceof PimsError && e.code === 'signed_out') {
        await this.store.deleteSecret(this.name);
        throw this.signedOut();
      }
      throw e;
    }
  }

  /**
   * Refreshes unless another call already has since `staleAccessToken` was read. A refresh
   * the PIMS refuses removes the tokens: they will not work again.
   */
  private async refresh(staleAccessToken: string): Promise<TokenSet> {
    if (this.refreshing) return this.refreshing;
    this.refreshing = (async () => {
      const current = await this.load();
      if (!current) throw this.signedOut();
      if (current.accessToken !== staleAccessToken) return current;
      if (!current.refreshToken) {
        await this.store.deleteSecret(this.name);
        throw this.signedOut();
      }
      try {
        const fresh = await refreshTokens(this.options.client, current.refreshToken, this.options.http, this.now);
        await this.save(fresh);
        return fresh;
      } catch (e) {
        if (e instanceof PimsError && e.code === 'signed_out') await this.store.deleteSecret(this.name);
        throw e;
      }
    })();
    try {
      return await this.refreshing;
    } finally {
      this.refreshing = null;
    }
  }

  /**
   * Signs the vet out of the PIMS: the copy here goes first (so a failure to reach the PIMS
   * never leaves the tokens usable on this computer), then both tokens are withdrawn there.
   * Resolves to whether the PIMS confirmed it; false means they lapse on their own.
   */
  async signOut(): Promise<boolean> {
    const tokens = await this.load();
    await this.store.deleteSecret(this.name);
    if (!tokens) return true;
    try {
      // The refresh token first: withdrawing it withdraws the access tokens it made.
      if (tokens.refreshToken)
        await revokeToken(this.options.client, tokens.refreshToken, 'refresh_token', this.options.http);
      await revokeToken(this.options.client, tokens.accessToken, 'access_token', this.options.http);
      return true;
    } catch {
      return false;
    }
  }

  private signedOut(): PimsError {
    return new PimsError('signed_out', `Sign in to ${this.pimsName} again.`);
  }
}
