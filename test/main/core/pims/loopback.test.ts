// The loopback redirect receiver (src/main/core/pims/loopback.ts) over real HTTP: the code comes
// back with the right state; a wrong state, a cancelled sign-in and a time-out each reject with
// a sentence; the browser is told it can close the page; and the port is closed after, whatever
// happened, so a second use finds nothing listening.
import { describe, expect, it } from 'vitest';
import { startLoopbackReceiver } from '../../../../src/main/core/pims/index.ts';
import { pimsFailure as rejection } from './support.ts';

async function get(url: string): Promise<{ status: number; body: string; headers: Headers }> {
  const answer = await fetch(url);
  return { status: answer.status, body: await answer.text(), headers: answer.headers };
}

function back(redirectUri: string, query: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  return url.toString();
}

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return false;
  } catch {
    return true;
  }
}

describe('the loopback redirect receiver', () => {
  it('resolves with the code on 127.0.0.1, tells the browser it can close the page, then closes', async () => {
    const r = await startLoopbackReceiver({ state: 'st-1', name: 'Provet' });
    expect(r.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\/[0-9a-f]{16}$/);
    const page = await get(back(r.redirectUri, { code: 'the-code', state: 'st-1' }));
    expect(await r.code).toBe('the-code');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.body).toContain('You can close this page');
    expect(page.body).not.toContain('the-code');
    await r.closed;
    // A second use of the redirect finds the port closed.
    expect(await refused(back(r.redirectUri, { code: 'again', state: 'st-1' }))).toBe(true);
  });

  it('answers 404 on any other path and keeps waiting for its own', async () => {
    const r = await startLoopbackReceiver({ state: 'st-2' });
    const other = new URL(r.redirectUri);
    other.pathname = '/callback';
    other.searchParams.set('state', 'st-2');
    other.searchParams.set('code', 'stolen');
    expect((await get(other.toString())).status).toBe(404);
    await get(back(r.redirectUri, { code: 'right', state: 'st-2' }));
    expect(await r.code).toBe('right');
  });

  it('rejects a state that does not match, and closes', async () => {
    const r = await startLoopbackReceiver({ state: 'expected', name: 'Provet' });
    const page = await get(back(r.redirectUri, { code: 'c', state: 'forged' }));
    expect(page.status).toBe(400);
    const e = await rejection(r.code);
    expect(e.code).toBe('sign_in_failed');
    expect(e.message).toBe(
      'The sign-in to Provet came back with a state that does not match the one Vet Scribe sent: sign in again.',
    );
    await r.closed;
    expect(await refused(r.redirectUri)).toBe(true);
  });

  it('rejects error=access_denied as a sign-in cancelled or its page closed', async () => {
    const r = await startLoopbackReceiver({ state: 's', name: 'Provet' });
    const page = await get(back(r.redirectUri, { error: 'access_denied', state: 's' }));
    expect(page.body).toContain('You can close this page');
    const e = await rejection(r.code);
    expect(e.message).toBe('The sign-in to Provet was cancelled or its page closed before signing in.');
    await r.closed;
  });

  it('rejects a redirect that never comes once the time is up, and closes', async () => {
    const r = await startLoopbackReceiver({ state: 's', name: 'Provet', timeoutMs: 300 });
    const e = await rejection(r.code);
    expect(e.message).toBe('The sign-in to Provet did not come back within 1 second: sign in again.');
    await r.closed;
    expect(await refused(r.redirectUri)).toBe(true);
  });

  it('closes when the sign-in is cancelled in the app', async () => {
    const r = await startLoopbackReceiver({ state: 's', name: 'Provet' });
    r.cancel();
    expect((await rejection(r.code)).message).toBe('The sign-in to Provet was cancelled.');
    await r.closed;
    expect(await refused(r.redirectUri)).toBe(true);
  });
});
