// What the tests of webhook signing share, in shared/, the sandbox and the receiver: the vectors
// python3 made (test/fixtures/webhook-vectors.json), python3 as the other side of a signature,
// and the scribe event they sign.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The script that makes the vectors, and canonicalises and verifies as Python does. */
export const VECTORS_SCRIPT = fileURLToPath(new URL('../../scripts/make-webhook-vectors.py', import.meta.url));
export const VECTORS_FILE = fileURLToPath(new URL('../fixtures/webhook-vectors.json', import.meta.url));

export interface Vector {
  name: string;
  secret: string;
  raw: string;
  canonical: string;
  signature: string;
}
export const vectors = JSON.parse(readFileSync(VECTORS_FILE, 'utf8')) as Vector[];

/** What python3 says of a body and its X-Webhook-Signature: "ok" or "bad". */
export function pythonVerify(secret: string, body: string | Buffer, signature: string): string {
  const run = spawnSync('python3', [VECTORS_SCRIPT, '--verify', secret, signature], { input: body, encoding: 'utf8' });
  if (run.status !== 0 && run.status !== 1) throw new Error(`python3 failed (${run.status}): ${run.stderr}`);
  return run.stdout.trim();
}

/** A `scribe` event with an event id, as a sender that gives one delivers it. */
export function scribeEvent(eventId = 'evt-1'): Record<string, unknown> {
  return {
    event_id: eventId,
    event_type: 'scribe',
    status: 'completed',
    scribe_public_id: 'scr_1',
    recording_session_public_id: 'rs_1',
    organization_public_id: '5f0c8a9e-2b4d-4c61-8f3a-7d9e1b2c3a4d',
    occurred_at: '2025-03-14T09:26:53.589Z',
  };
}
