// Where the session's tokens live. One owner (the Session); nothing else reads them, and no
// IPC channel hands them out. Order of preference: the OS keychain (keytar); Electron
// safeStorage when its backend is a real one (an encrypted file); memory for this run only.
// Never plain text on disk.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { z } from 'zod';

export const storedSessionSchema = z.object({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1),
  expiresAt: z.number().optional(),
  refreshExpiresAt: z.number().optional(),
  /** When these tokens were received (ms), to size the refresh margin to their lifetime. */
  obtainedAt: z.number().optional(),
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), organizationId: z.string() }).nullable(),
});
export type StoredSession = z.infer<typeof storedSessionSchema>;

export type SecretStoreKind = 'keychain' | 'safe-storage' | 'memory';

export interface SecretStore {
  readonly kind: SecretStoreKind;
  /** Whether the tokens outlive this run of the app. */
  readonly persistent: boolean;
  /** Human words for Settings: where the tokens are kept. */
  readonly description: string;
  load(): Promise<StoredSession | null>;
  save(session: StoredSession): Promise<void>;
  clear(): Promise<void>;
  /**
   * A secret other than the session, by name (the clinic's webhook secret). It outlives a
   * sign-out: it belongs to the clinic, not to the vet signed in.
   */
  saveSecret(name: SecretName, value: string): Promise<void>;
  loadSecret(name: SecretName): Promise<string | null>;
  /** Removes a named secret; nothing happens when there is none. */
  deleteSecret(name: SecretName): Promise<void>;
  /**
   * The store of one account's background sign-in (kept while their consults are in flight
   * after a switch of user), beside the foreground's, which stays where it always was.
   */
  forAccount(userId: string): SecretStore;
}

/** The entry name of an account's background sign-in: a hash, so no user id shapes a key or a file name. */
export function accountKey(userId: string): string {
  return createHash('sha256').update(userId).digest('hex').slice(0, 32);
}

/**
 * The named secrets the app keeps beside the session: the clinic's webhook secret, the secret
 * the built-in sandbox's keys come from (so its sign-ins outlive a restart exactly as long as
 * the session kept beside it does, and its state file holds no key), and a vet's sign-in to a
 * practice-management system, one per app account and PIMS instance (`pims-tokens.` and a hash,
 * so no user id or address shapes a key or a file name).
 */
export type SecretName = 'webhook-secret' | 'sandbox-key' | 'background-sessions' | `pims-tokens.${string}`;

function parseStored(text: string | null): StoredSession | null {
  if (!text) return null;
  try {
    const result = storedSessionSchema.safeParse(JSON.parse(text));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

export class MemorySecretStore implements SecretStore {
  readonly kind = 'memory' as const;
  readonly persistent = false;
  readonly description: string;
  private value: StoredSession | null = null;
  private readonly named = new Map<SecretName, string>();
  constructor(description = 'in memory for this run only: you will sign in again after a restart') {
    this.description = description;
  }
  async load() {
    return this.value;
  }
  async save(session: StoredSession) {
    this.value = structuredClone(session);
  }
  async clear() {
    this.value = null;
  }
  async saveSecret(name: SecretName, value: string) {
    this.named.set(name, value);
  }
  async loadSecret(name: SecretName) {
    return this.named.get(name) ?? null;
  }
  async deleteSecret(name: SecretName) {
    this.named.delete(name);
  }
  private readonly accounts = new Map<string, MemorySecretStore>();
  forAccount(userId: string): SecretStore {
    let store = this.accounts.get(userId);
    if (!store) this.accounts.set(userId, (store = new MemorySecretStore(this.description)));
    return store;
  }
}

/** The part of keytar this store uses, so it can be loaded lazily (a native addon). */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<{ account: string; password: string }[]>;
}

/**
 * Characters a keychain entry holds here: Windows caps a secret at 2,560 bytes. The session is
 * written as ASCII-only JSON (a name's other letters as \u escapes), so a character is a byte.
 */
export const KEYCHAIN_ENTRY_CHARS = 2000;

export class KeychainSecretStore implements SecretStore {
  readonly kind = 'keychain' as const;
  readonly persistent = true;
  readonly description = 'in the system keychain';
  private readonly keytar: KeytarLike;
  private readonly service: string;
  private readonly account: string;
  constructor(keytar: KeytarLike, service = 'Vet Scribe', account = 'session') {
    this.keytar = keytar;
    this.service = service;
    this.account = account;
  }
  async load() {
    const head = await this.keytar.getPassword(this.service, this.account);
    const chunks = head === null ? null : /^chunked:(\d{1,3})$/.exec(head);
    if (!chunks) return parseStored(head);
    const parts: string[] = [];
    for (let i = 1; i <= Number(chunks[1]); i++) {
      const part = await this.keytar.getPassword(this.service, `${this.account}.${i}`);
      if (part === null) return null;
      parts.push(part);
    }
    return parseStored(parts.join(''));
  }
  /**
   * Windows' Credential Manager holds at most 2,560 bytes a secret, and the service's two JWTs
   * and the user may not fit: a session longer than one entry is kept in numbered entries, the
   * first entry saying how many. Parts are written before the entry that names them, so a crash
   * halfway leaves the previous session readable or none, never a mix.
   */
  async save(session: StoredSession) {
    const text = JSON.stringify(session).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    const previous = await this.chunkCount();
    if (text.length <= KEYCHAIN_ENTRY_CHARS) {
      await this.keytar.setPassword(this.service, this.account, text);
      await this.removeChunks(1, previous);
      return;
    }
    const count = Math.ceil(text.length / KEYCHAIN_ENTRY_CHARS);
    for (let i = 1; i <= count; i++) {
      await this.keytar.setPassword(
        this.service,
        `${this.account}.${i}`,
        text.slice((i - 1) * KEYCHAIN_ENTRY_CHARS, i * KEYCHAIN_ENTRY_CHARS),
      );
    }
    await this.keytar.setPassword(this.service, this.account, `chunked:${count}`);
    await this.removeChunks(count + 1, previous);
  }
  async clear() {
    const count = await this.chunkCount();
    await this.keytar.deletePassword(this.service, this.account);
    await this.removeChunks(1, count);
  }
  private async chunkCount(): Promise<number> {
    const head = await this.keytar.getPassword(this.service, this.account);
    const m = head === null ? null : /^chunked:(\d{1,3})$/.exec(head);
    return m ? Number(m[1]) : 0;
  }
  private async removeChunks(from: number, to: number): Promise<void> {
    for (let i = from; i <= to; i++) await this.keytar.deletePassword(this.service, `${this.account}.${i}`);
  }
  // Each named secret is its own keychain entry beside the session's.
  async saveSecret(name: SecretName, value: string) {
    await this.keytar.setPassword(this.service, name, value);
  }
  async loadSecret(name: SecretName) {
    return this.keytar.getPassword(this.service, name);
  }
  async deleteSecret(name: SecretName) {
    await this.keytar.deletePassword(this.service, name);
  }
  forAccount(userId: string): SecretStore {
    return new KeychainSecretStore(this.keytar, this.service, `account.${accountKey(userId)}`);
  }
  /** Whether a keychain answers at all (on Linux, a Secret Service on the session bus). */
  async probe(): Promise<boolean> {
    try {
      await this.keytar.findCredentials(this.service);
      return true;
    } catch {
      return false;
    }
  }
}

export interface Cipher {
  encrypt(plain: string): Buffer;
  decrypt(data: Buffer): string;
}

/** Tokens encrypted by the OS (Electron safeStorage) in a file of the data folder. */
export class EncryptedFileSecretStore implements SecretStore {
  readonly kind = 'safe-storage' as const;
  readonly persistent = true;
  readonly description: string;
  private readonly file: string;
  private readonly cipher: Cipher;
  constructor(file: string, cipher: Cipher, description = 'encrypted by the operating system in the app data folder') {
    this.file = file;
    this.cipher = cipher;
    this.description = description;
  }
  async load() {
    let data: Buffer;
    try {
      data = await readFile(this.file);
    } catch {
      return null;
    }
    try {
      return parseStored(this.cipher.decrypt(data));
    } catch {
      return null;
    }
  }
  async save(session: StoredSession) {
    this.writeEncrypted(this.file, JSON.stringify(session));
  }
  async clear() {
    await rm(this.file, { force: true });
  }
  // A named secret is its own encrypted file beside the session's, so a sign-out keeps it.
  async saveSecret(name: SecretName, value: string) {
    this.writeEncrypted(`${this.file}.${name}`, value);
  }
  async loadSecret(name: SecretName) {
    try {
      return this.cipher.decrypt(await readFile(`${this.file}.${name}`));
    } catch {
      return null;
    }
  }
  async deleteSecret(name: SecretName) {
    await rm(`${this.file}.${name}`, { force: true });
  }
  forAccount(userId: string): SecretStore {
    return new EncryptedFileSecretStore(`${this.file}.${accountKey(userId)}`, this.cipher, this.description);
  }
  private writeEncrypted(file: string, plain: string) {
    const tmp = `${file}.${randomUUID()}.tmp`;
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, this.cipher.encrypt(plain));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  }
}

/**
 * keytar, the native module that reaches the keychain, could not be loaded: a broken or
 * mismatched install, not a computer without a keychain. Native modules loaded from an
 * Electron app's archive have failed to load before (electron/electron#40211, #45896), and
 * the tokens would then move to another store without anyone knowing why.
 */
export class KeychainLoadError extends Error {
  override readonly name = 'KeychainLoadError';
}

/**
 * Loads keytar (`load`, replaceable for tests) and checks that a keychain answers; null when
 * none answers (a Linux desktop without a Secret Service). A keytar that does not load is a
 * KeychainLoadError, for chooseSecretStore to log and say (main's choice).
 */
export async function loadKeychain(
  service?: string,
  load: () => Promise<unknown> = () => import('keytar'),
): Promise<KeychainSecretStore | null> {
  let keytar: KeytarLike;
  try {
    const mod = (await load()) as { default?: KeytarLike } & KeytarLike;
    keytar = mod.default ?? mod;
    if (typeof keytar.getPassword !== 'function') throw new Error('the module has no getPassword');
  } catch (e) {
    throw new KeychainLoadError(`the keychain module (keytar) could not be loaded: ${(e as Error).message}`, {
      cause: e,
    });
  }
  const store = new KeychainSecretStore(keytar, service);
  return (await store.probe()) ? store : null;
}

/**
 * loadKeychain for the browser host, the tests and the benchmarks, which keep the tokens in
 * memory when there is no keychain for whatever reason: null when keytar does not load either.
 */
export async function openKeychain(service?: string): Promise<KeychainSecretStore | null> {
  try {
    return await loadKeychain(service);
  } catch (e) {
    if (e instanceof KeychainLoadError) return null;
    throw e;
  }
}

/** The part of Electron's safeStorage the choice needs (main hands it over; tests fake it). */
export interface SafeStorageLike extends Cipher {
  isEncryptionAvailable(): boolean;
  /** Linux's backend ('basic_text' = a fixed key, no protection); 'os' elsewhere. */
  backend(): string;
}

export const MEMORY_ONLY_NOTICE =
  'No system keychain is available, so your sign-in is kept in memory only: you will be asked to sign in again after the app restarts.';

/** Said once when keytar itself did not load: where the tokens went instead, and what helps. */
export function keychainLoadNotice(store: SecretStore): string {
  return `Vet Scribe could not load its keychain module, so your sign-in is not in the system keychain. It is kept ${store.description}. Reinstalling Vet Scribe usually puts this right; the log has the details.`;
}

/**
 * Keychain first; else safeStorage when it has a real backend (its `basic_text` fallback is a
 * hard-coded key, as good as plain text); else memory for this run, with a notice that says so.
 */
export async function chooseSecretStore(options: {
  keychain: () => Promise<SecretStore | null>;
  safeStorage: SafeStorageLike;
  file: string;
  notices: { level: 'warning' | 'info' | 'error'; message: string }[];
  /** Where a keychain module that did not load is written down (main's log). */
  log?: (line: string) => void;
}): Promise<SecretStore> {
  let keychain: SecretStore | null = null;
  let loadFailed = false;
  try {
    keychain = await options.keychain();
  } catch (e) {
    if (!(e instanceof KeychainLoadError)) throw e;
    loadFailed = true;
    const cause = e.cause instanceof Error && e.cause.stack ? `\n${e.cause.stack}` : '';
    options.log?.(`keychain: ${e.message}; tokens go to the next store instead${cause}`);
  }
  if (keychain) return keychain;
  const { safeStorage } = options;
  const backend = safeStorage.backend();
  const store =
    safeStorage.isEncryptionAvailable() && backend !== 'basic_text' && backend !== 'unknown'
      ? new EncryptedFileSecretStore(options.file, safeStorage)
      : new MemorySecretStore();
  // One notice: a module that did not load says so and where the tokens are; otherwise only
  // the memory-only store needs saying.
  if (loadFailed) options.notices.push({ level: 'warning', message: keychainLoadNotice(store) });
  else if (store.kind === 'memory') options.notices.push({ level: 'warning', message: MEMORY_ONLY_NOTICE });
  return store;
}
