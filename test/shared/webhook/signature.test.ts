// X-Webhook-Signature both ways: TypeScript reproduces the signatures python3 made for the
// vectors, and python3 accepts what TypeScript signs.
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  canonicalJsonFromValue,
  SIGNATURE_HEADER,
  signWebhook,
  verifySignature,
  verifyWebhook,
  WebhookPayloadError,
} from '../../../src/shared/webhook/index.ts';
import { pythonVerify, scribeEvent, vectors, type Vector } from '../../support/webhook-vectors.ts';

function flipFirstDigit(hex: string): string {
  return (hex[0] === '0' ? '1' : '0') + hex.slice(1);
}

describe('signWebhook and verifyWebhook against the Python vectors', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', async (_name, v) => {
    expect(await signWebhook(v.secret, v.canonical)).toBe(v.signature);
    expect(await signWebhook(v.secret, canonicalJson(v.raw))).toBe(v.signature);
    expect(await verifyWebhook(v.secret, v.raw, v.signature)).toBe(true);
    expect(await verifyWebhook(v.secret + 'x', v.raw, v.signature)).toBe(false);
    expect(await verifyWebhook(v.secret, v.raw, flipFirstDigit(v.signature))).toBe(false);
  });
});

describe('verification', () => {
  const v = vectors.find((x) => x.name === 'scribe event, default json.dumps spacing') as Vector;

  it('fails for a tampered body', async () => {
    expect(v.raw).toContain('"completed"');
    expect(await verifyWebhook(v.secret, v.raw.replace('"completed"', '"failed"'), v.signature)).toBe(false);
    expect(await verifyWebhook(v.secret, v.raw.replace('}', ', "extra": 1}'), v.signature)).toBe(false);
  });

  it('accepts the same payload with other spacing and key order', async () => {
    const reordered = JSON.stringify(
      Object.fromEntries(Object.entries(JSON.parse(v.raw) as object).reverse()),
      null,
      3,
    );
    expect(await verifyWebhook(v.secret, reordered, v.signature)).toBe(true);
  });

  it('accepts uppercase hex, which names the same bytes', async () => {
    expect(await verifyWebhook(v.secret, v.raw, v.signature.toUpperCase())).toBe(true);
  });

  it.each(['', 'abc', 'z'.repeat(64), ' '.repeat(64), 'sha256=' + 'a'.repeat(57), 'a'.repeat(63), 'a'.repeat(65)])(
    'answers false for a signature that is not 64 hex digits: %j',
    async (signature) => {
      expect(await verifySignature(v.secret, v.canonical, signature)).toBe(false);
    },
  );

  it('answers false when the right signature has extra text around it', async () => {
    expect(await verifyWebhook(v.secret, v.raw, ` ${v.signature}`)).toBe(false);
    expect(await verifyWebhook(v.secret, v.raw, `${v.signature}00`)).toBe(false);
  });

  it('throws WebhookPayloadError for a body that is not JSON', async () => {
    await expect(verifyWebhook(v.secret, 'not json', v.signature)).rejects.toBeInstanceOf(WebhookPayloadError);
    await expect(verifyWebhook(v.secret, '', v.signature)).rejects.toBeInstanceOf(WebhookPayloadError);
  });

  it('refuses an empty secret', async () => {
    await expect(signWebhook('', '{}')).rejects.toThrow(/secret is empty/);
  });

  it('names the header in lower case, as Node reports headers', () => {
    expect(SIGNATURE_HEADER).toBe('x-webhook-signature');
  });
});

describe('what TypeScript signs, Python verifies', () => {
  const payloads: [string, unknown][] = [
    ['scribe event', scribeEvent('c0ffee00-0000-4000-8000-000000000001')],
    [
      'non-ASCII',
      { owner: 'Müller', note: 'café — 犬の診察', pet: '🐕‍🦺 Rex', keys: { é: 1, z: 2, '😀': 3, '\uffff': 4 } },
    ],
    ['nested, numbers', { a: [1, -2, [0.5, { y: null, x: true }]], b: { d: [], c: {} }, n: 123456789012 }],
    ['escapes', { s: 'quote " backslash \\ newline \n tab \t nul \u0000 del \u007f slash /' }],
  ];

  it.each(payloads)('%s', async (_name, payload) => {
    const canonical = canonicalJsonFromValue(payload);
    const signature = await signWebhook('clinic-secret', canonical);
    expect(pythonVerify('clinic-secret', canonical, signature)).toBe('ok');
    // Python canonicalises the wire text itself, so other spacing and raw UTF-8 still verify.
    expect(pythonVerify('clinic-secret', JSON.stringify(payload, null, 2), signature)).toBe('ok');
    expect(pythonVerify('another-secret', canonical, signature)).toBe('bad');
    expect(pythonVerify('clinic-secret', canonical, flipFirstDigit(signature))).toBe('bad');
  });

  it('with a non-ASCII secret', async () => {
    const canonical = canonicalJsonFromValue({ event_id: 'e-1', owner: 'Müller' });
    const secret = 'sécret-🔑';
    expect(pythonVerify(secret, canonical, await signWebhook(secret, canonical))).toBe('ok');
  });

  it('a tampered body fails in Python too', async () => {
    const canonical = canonicalJsonFromValue({ event_id: 'e-2', status: 'completed' });
    const signature = await signWebhook('k', canonical);
    expect(pythonVerify('k', canonical.replace('completed', 'failed'), signature)).toBe('bad');
  });
});
