// The sandbox's keys, held in memory only. One secret (given by the app from its secret store,
// or SANDBOX_SECRET_KEY, else made up for this run) gives, by HKDF, the key tokens are signed
// with, the key upload addresses are signed with, and the key that seals the webhook secrets a
// clinic registers before they are written to the state file. The state file holds none of them
// and no live token: a copy of it signs nothing and opens no session.
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

export interface SandboxKeys {
  /** HS256 key of the access and refresh tokens. */
  readonly jwt: Buffer;
  /** HMAC key of the presigned upload addresses. */
  readonly upload: Buffer;
  /**
   * The access key id that upload addresses name (X-Amz-Credential). It follows the secret, so
   * an address signed under another secret (a run before, with a made-up one) is answered as S3
   * answers an unknown key, InvalidAccessKeyId, which a client treats as an address to ask for
   * again, and not as a bad signature.
   */
  readonly uploadKeyId: string;
  /** Seals a secret for the state file (AES-256-GCM, a fresh nonce each time). */
  seal(text: string): string;
  /** Opens a sealed secret; null when it was sealed under another secret or was altered. */
  open(sealed: string): string | null;
}

const SECRET_BYTES = 32;
const SEALED = /^v1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/;

/** A new secret for the sandbox, as SANDBOX_SECRET_KEY and the app's secret store keep it. */
export function newSandboxSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64');
}

/** Why a secret cannot serve, in words; null when it can. */
export function sandboxSecretProblem(secret: string): string | null {
  const bytes = /^[A-Za-z0-9+/]+={0,2}$/.test(secret) ? Buffer.from(secret, 'base64') : Buffer.alloc(0);
  return bytes.length >= SECRET_BYTES
    ? null
    : `must be at least ${SECRET_BYTES} random bytes in base64 (for example the output of "openssl rand -base64 32")`;
}

function derive(secret: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), `vet-scribe-sandbox ${purpose}`, 32));
}

export function sandboxKeys(secret: string | null): SandboxKeys {
  if (secret !== null) {
    const problem = sandboxSecretProblem(secret);
    if (problem) throw new Error(`The sandbox secret ${problem}.`);
  }
  const master = Buffer.from(secret ?? newSandboxSecret(), 'base64');
  const upload = derive(master, 'upload');
  const sealKey = derive(master, 'seal');
  return {
    jwt: derive(master, 'jwt'),
    upload,
    uploadKeyId: `SANDBOX${createHmac('sha256', upload).update('key id').digest('hex').slice(0, 13).toUpperCase()}`,
    seal(text) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', sealKey, nonce);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return `v1.${nonce.toString('base64url')}.${body.toString('base64url')}.${cipher.getAuthTag().toString('base64url')}`;
    },
    open(sealed) {
      const m = SEALED.exec(sealed);
      if (!m) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(m[1]!, 'base64url'));
        decipher.setAuthTag(Buffer.from(m[3]!, 'base64url'));
        return Buffer.concat([decipher.update(Buffer.from(m[2]!, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
