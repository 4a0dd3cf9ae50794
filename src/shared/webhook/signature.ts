// X-Webhook-Signature (docs/service.md, "Webhooks"): lowercase hex HMAC-SHA256 of the canonical text's UTF-8 bytes,
// keyed with the secret. Web Crypto is used because it exists in Node and in browsers alike,
// and because `subtle.verify` compares the digests in constant time.
import { canonicalJson } from './canonical-json.ts';

export const SIGNATURE_HEADER = 'x-webhook-signature';

const encoder = new TextEncoder();

// Spelled this way because Node's types declare CryptoKey as a value only, the DOM's as a type.
type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

async function hmacKey(secret: string): Promise<HmacKey> {
  // Web Crypto refuses a zero-length HMAC key; say why in our own words.
  if (secret === '') throw new Error('the webhook secret is empty');
  return globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
}

/** The X-Webhook-Signature value for a canonical text. */
export async function signWebhook(secret: string, canonicalText: string): Promise<string> {
  const digest = new Uint8Array(
    await globalThis.crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(canonicalText)),
  );
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

const HEX_DIGEST = /^[0-9a-fA-F]{64}$/;

/**
 * Checks a signature against a canonical text. The published encoding is lowercase hex; uppercase
 * digits are accepted too, since they name the same bytes and a sender that writes them is
 * still holding the secret. Anything that is not 64 hex digits is simply wrong (false).
 */
export async function verifySignature(secret: string, canonicalText: string, signature: string): Promise<boolean> {
  if (!HEX_DIGEST.test(signature)) return false;
  const expected = new Uint8Array(32);
  for (let i = 0; i < 32; i++) expected[i] = parseInt(signature.slice(i * 2, i * 2 + 2), 16);
  return globalThis.crypto.subtle.verify('HMAC', await hmacKey(secret), expected, encoder.encode(canonicalText));
}

/**
 * Checks a delivery as received: the raw body is canonicalised first, so a sender may use any
 * spacing and key order. Throws WebhookPayloadError when the body is not JSON.
 */
export async function verifyWebhook(secret: string, rawBody: string, signature: string): Promise<boolean> {
  return verifySignature(secret, canonicalJson(rawBody), signature);
}
