// Fault injection, persistence, the command line, and bad input on every route: the sandbox
// must answer clearly and keep serving.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { newSandboxSecret, startSandbox } from '../../src/sandbox/index.ts';
import { call, fakeWebm, signIn, uploadRecording, recordingSessionBody } from '../support/http.ts';
import { sandboxPerTest } from './support.ts';

const start = sandboxPerTest();

describe('fault injection', () => {
  it('--fail-rate answers a share of requests 503 with Retry-After', async () => {
    const s = await start({ failRate: 0.5, seed: 7 });
    const answers = [];
    for (let i = 0; i < 40; i++) answers.push(await call('GET', `${s.urls.scribe_url}/templates/all`));
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(8);
    expect(unavailable.length).toBeLessThan(32);
    expect(unavailable[0]?.headers['retry-after']).toBe('1');
    expect(unavailable[0]?.json).toEqual({ detail: expect.stringMatching(/outage/), code: 'service_unavailable' });
    expect(s.stats().injected503).toBe(unavailable.length);
  });

  it('--drop-rate cuts connections in the middle of the answer', async () => {
    const s = await start({ dropRate: 1 });
    await expect(call('POST', `${s.urls.agents_url}/auth/sign-in`, { body: s.demo })).rejects.toThrow();
    expect(s.stats().droppedConnections).toBe(1);
    // The handler ran before the cut: that is what makes a lost answer dangerous.
    expect(s.stats().signIns).toBe(1);
  });

  it('--latency-ms delays every answer', async () => {
    const s = await start({ latencyMs: 300 });
    const t0 = performance.now();
    await call('GET', `${s.urls.scribe_url}/templates/all`);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290);
  });

  it('--rate-limit answers 429 with Retry-After past the limit', async () => {
    const s = await start({ rateLimitPerMinute: 3 });
    const statuses = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await call('GET', `${s.urls.scribe_url}/templates/all`, { token: 'same-client' });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(Number(last?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(last?.json['code']).toBe('rate_limited');
  });
});

describe('persistence', () => {
  it('with --data-dir, accounts, tokens, sessions, uploads and jobs survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
    try {
      // The secret comes from outside the state (the app's secret store): the same at each start.
      const secretKey = newSandboxSecret();
      const first = await startSandbox({ dataDir: dir, scribeSeconds: 0, secretKey });
      const me = await signIn(first);
      const { recordingSessionId } = await uploadRecording(first, me.access, fakeWebm());
      await first.close();
      const second = await start({ dataDir: dir, secretKey });
      const t = await call<{ items: { public_id: string }[] }>('GET', `${second.urls.scribe_url}/templates/all`, {
        token: me.access,
      });
      expect(t.status).toBe(200);
      const r = await call<{ public_id: string }>('POST', `${second.urls.scribe_url}/scribe/request`, {
        token: me.access,
        body: { recording_session_public_id: recordingSessionId, template_public_id: t.json.items[0]?.public_id },
      });
      expect(r.status).toBe(200);
      const g = await call<{ status: string }>('GET', `${second.urls.scribe_url}/scribe/get/${r.json.public_id}`, {
        token: me.access,
      });
      expect(g.json.status).toBe('scribed');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('bad input never crashes it', () => {
  it('answers garbage on every route with a clear {detail, code} and keeps serving', async () => {
    const s = await start({ rateLimitPerMinute: 0 });
    const me = await signIn(s);
    const routes: [string, string][] = [
      ['POST', `${s.urls.agents_url}/auth/sign-in`],
      ['POST', `${s.urls.scribe_url}/auth/login`],
      ['POST', `${s.urls.scribe_url}/auth/refresh-token`],
      ['POST', `${s.urls.scribe_url}/recording-sessions/create`],
      ['POST', `${s.urls.scribe_url}/audio/generate-upload-url`],
      ['POST', `${s.urls.scribe_url}/scribe/request`],
      ['POST', `${s.urls.agents_api_url}/ddx_agent_v2`],
      ['POST', `${s.urls.agents_api_url}/treatment_plan_agent_v2`],
      ['PATCH', `${s.urls.scribe_url}/organizations/update-email-for-notification`],
      ['PATCH', `${s.urls.scribe_url}/webhook/status`],
      ['POST', `${s.urls.agents_api_url}/medication_agent_v2`],
      ['PUT', `${s.urls.scribe_url}/webhook/update`],
    ];
    const garbage: (string | Buffer)[] = [
      '{',
      'null',
      '[]',
      '"text"',
      '123',
      '{"input": {"$gt": ""}}',
      '{"email": null, "password": []}',
      Buffer.from([0xff, 0xfe, 0x00, 0x01]),
      '{"unexpected": 1}'.padEnd(5000, ' '),
    ];
    for (const [method, url] of routes) {
      for (const body of garbage) {
        const a = await call(method, url, {
          token: me.access,
          rawBody: body,
          headers: { 'content-type': 'application/json', 'x-api-version': 'v1' },
        });
        expect(a.status, `${method} ${url} ${String(body).slice(0, 20)}`).toBeGreaterThanOrEqual(400);
        expect(a.status, `${method} ${url} ${String(body).slice(0, 20)}`).toBeLessThan(500);
        // FastAPI's two shapes: a sentence, or a 422 list of { loc, msg, type }.
        const detail = a.json['detail'];
        if (Array.isArray(detail)) {
          expect(a.status).toBe(422);
          for (const item of detail)
            expect(item).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) });
        } else {
          expect(a.status, `${method} ${url} ${String(body).slice(0, 20)}: a 422 is always a list`).not.toBe(422);
          expect(a.json).toEqual({ detail: expect.any(String), code: expect.any(String) });
        }
      }
      // The storage PUT answers S3's XML, never JSON.
      const put = await call(
        'PUT',
        `${s.origin}/storage/${encodeURIComponent('recordings/x/y/z')}?X-Amz-Date=1&X-Amz-Signature=zz`,
        { rawBody: 'x' },
      );
      expect([put.status, /<Code>InvalidAccessKeyId<\/Code>/.test(put.text)]).toEqual([403, true]);
    }
    expect((await call('POST', `${s.urls.agents_url}/auth/sign-in`, { body: s.demo })).status).toBe(200);
  });

  it('answers request targets the URL parser reads as a host, and broken percent-encoding, with 400', async () => {
    const s = await start({ rateLimitPerMinute: 0 });
    const me = await signIn(s);
    for (const target of ['//', '/\\', '//@', '//evil.example/scribe/templates/all', '/scribe/scribe/get/%E0%A4%A']) {
      const answer = await rawGet(s.origin, target, me.access);
      expect(answer.status, target).toBe(target.startsWith('/scribe') ? 400 : 404);
      expect(JSON.parse(answer.body), target).toEqual({ detail: expect.any(String), code: expect.any(String) });
    }
    expect((await call('POST', `${s.urls.agents_url}/auth/sign-in`, { body: s.demo })).status).toBe(200);
  });
});

/** A GET with the request target written as given (clients normalise `//` and `\`). */
async function rawGet(origin: string, target: string, token: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  socket.write(
    `GET ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
  return { status, body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

describe('command line', () => {
  const cli = join(import.meta.dirname, '../../src/sandbox/cli.ts');

  async function startCli(args: string[], env: Record<string, string> = {}) {
    const child = spawn(process.execPath, [cli, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    const info = JSON.parse(line) as {
      agents_url: string;
      scribe_url: string;
      agents_api_url: string;
      demo: { email: string; password: string };
      provet: { address: string; client_id: string };
    };
    const stop = async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    };
    return { info, stop };
  }

  it('npm run sandbox -- --port 0 prints one JSON line with the three addresses, the demo account and the Provet double, then serves', async () => {
    const { info, stop } = await startCli(['--port', '0', '--scribe-seconds', '0']);
    try {
      expect(info.agents_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/agents$/);
      expect(info.scribe_url).toMatch(/\/scribe$/);
      expect(info.agents_api_url).toMatch(/\/agents-api$/);
      const a = await call('POST', `${info.agents_url}/auth/sign-in`, { body: info.demo });
      expect(a.status).toBe(200);
      expect(info.provet.address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/provet\/\w+$/);
      // Its sign-in page answers for the client ID it printed.
      const page = await call(
        'GET',
        `${info.provet.address}/oauth2/authorize/?${new URLSearchParams({ response_type: 'code', client_id: info.provet.client_id, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', state: 's' })}`,
      );
      expect(page.status).toBe(200);
    } finally {
      await stop();
    }
  });

  it('with --data-dir (or SANDBOX_DATA_DIR), what it knew survives a restart of the command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vet-scribe-sandbox-cli-'));
    try {
      const secretKey = { SANDBOX_SECRET_KEY: newSandboxSecret() };
      const first = await startCli(['--port', '0', '--scribe-seconds', '0', '--data-dir', dir], secretKey);
      let access: string;
      let recordingSessionId: string;
      try {
        const signIn = await call<{ access_token: string }>('POST', `${first.info.agents_url}/auth/sign-in`, {
          body: first.info.demo,
        });
        access = signIn.json.access_token;
        const session = await call<{ public_id: string }>(
          'POST',
          `${first.info.scribe_url}/recording-sessions/create`,
          { token: access, body: recordingSessionBody('Bella') },
        );
        recordingSessionId = session.json.public_id;
      } finally {
        await first.stop();
      }
      const second = await startCli(['--port', '0'], { SANDBOX_DATA_DIR: dir, ...secretKey });
      try {
        // The token it signed before the restart is still good, and the session is still there.
        const url = await call('POST', `${second.info.scribe_url}/audio/generate-upload-url`, {
          token: access,
          body: { recording_session_public_id: recordingSessionId },
        });
        expect(url.status).toBe(200);
        const unknown = await call('POST', `${second.info.scribe_url}/audio/generate-upload-url`, {
          token: access,
          body: { recording_session_public_id: '00000000-0000-4000-8000-000000000000' },
        });
        expect(unknown.status).toBeGreaterThanOrEqual(400);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad flag value with a message and exit code 2', async () => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--fail-rate', '2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(2);
    expect(err).toMatch(/--fail-rate .* from 0 to 1/);
  });
});
