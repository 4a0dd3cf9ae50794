// The clinic's network: the engine goes through the proxy the computer names (a real HTTP proxy
// here, TooTallNate's `proxy`), trusts the roots it is given (a test root made with OpenSSL, as
// a TLS-inspecting proxy's root would be), and a proxy that refuses, a certificate not trusted
// and proxy settings that cannot be read each give a sentence saying what to ask IT, while the
// consult waits in the queue.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Network } from '../../../../src/main/core/service/network.ts';
import type { AppCore } from '../../../../src/main/core/app-core.ts';
import { toIpcError } from '../../../../src/main/core/ipc-handlers.ts';
import { ServiceClient } from '../../../../src/main/core/service/client.ts';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index.ts';
import {
  failure,
  firstTemplateId,
  makeRecording,
  startCoreAgainst,
  tempDir,
  waitForJob,
} from '../../../support/core.ts';

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/**
 * A proxy that notes the hosts it carries (tunnels for HTTPS and the upload, forwarded requests
 * for plain HTTP); `refuse` makes it answer 407 to everything.
 */
async function startProxy(): Promise<{
  proxy: ProxyServer;
  port: number;
  tunnels: string[];
  refuse: (yes: boolean) => void;
}> {
  const proxy = createProxy(createHttpServer());
  const tunnels: string[] = [];
  let refusing = false;
  proxy.authenticate = () => !refusing;
  proxy.on('connect', (req: { url?: string }) => {
    if (!refusing) tunnels.push(req.url ?? '');
  });
  proxy.on('request', (req: { url?: string }) => {
    if (!refusing && req.url?.startsWith('http://')) tunnels.push(new URL(req.url).host);
  });
  const port = await listen(proxy);
  return { proxy, port, tunnels, refuse: (yes) => (refusing = yes) };
}

/** A test root and a certificate for 127.0.0.1 and localhost signed by it. */
function makeCertificates(dir: string): { ca: string; key: string; cert: string } {
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  // A new P-256 key, written unencrypted.
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  run([
    'req',
    '-x509',
    ...newKey,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=Clinic Inspection Test Root',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  run(['req', ...newKey, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  run([
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  ]);
  return {
    ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
  };
}

/** HTTPS in front of the sandbox, with the test root's certificate. */
async function startTlsFront(
  sandboxPort: number,
  key: string,
  cert: string,
): Promise<{ server: Server; port: number }> {
  const server = createHttpsServer({ key, cert }, (req, res) => {
    const upstream = httpRequest(
      { host: '127.0.0.1', port: sandboxPort, path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  return { server, port: await listen(server) };
}

let sandbox: Sandbox;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let core: AppCore | null = null;
let certs: { ca: string; key: string; cert: string };
let front: { server: Server; port: number };

beforeAll(async () => {
  sandbox = await startSandbox({ scribeSeconds: 0.3, rateLimitPerMinute: 0 });
  proxy = await startProxy();
  certs = makeCertificates(tempDir('vet-scribe-tls-'));
  front = await startTlsFront(Number(new URL(sandbox.urls.scribe_url).port), certs.key, certs.cert);
});

afterAll(async () => {
  await close(front.server);
  await close(proxy.proxy);
  await sandbox.close();
});

afterEach(async () => {
  await core?.stop();
  core = null;
  proxy.refuse(false);
  proxy.tunnels.length = 0;
});

const sandboxHost = () => new URL(sandbox.urls.scribe_url).host;

describe('the proxy the computer names', () => {
  it('signs in and completes a consult through it, the upload included, asking the route for each address', async () => {
    const asked: string[] = [];
    core = await startCoreAgainst(sandbox, {
      network: {
        resolveProxy: (url) => {
          asked.push(new URL(url).pathname);
          return Promise.resolve(`PROXY 127.0.0.1:${proxy.port}; DIRECT`);
        },
      },
    });
    await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
    const id = await makeRecording(core);
    await core.pipeline.submit(id, await firstTemplateId(core));
    const done = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed');
    expect(done.state).toBe('completed');
    // Every call went through a tunnel to the sandbox; none went around the proxy.
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([sandboxHost()]));
    expect(asked.some((p) => p.endsWith('/auth/sign-in'))).toBe(true);
    // The PUT of the audio to its presigned address asked for its own route too.
    expect(asked.some((p) => p.includes('/storage/') || p.includes('upload'))).toBe(true);
  });

  it('a proxy that refuses (407) is a sentence naming the proxy and what to ask IT; the consult waits and is sent once the proxy lets it through', async () => {
    proxy.refuse(true);
    core = await startCoreAgainst(sandbox, {
      network: { resolveProxy: () => Promise.resolve(`PROXY 127.0.0.1:${proxy.port}`) },
    });
    const e = await failure(core.client.signIn(sandbox.demo.email, sandbox.demo.password));
    expect(e.kind).toBe('network');
    expect(e.code).toBe('proxy');
    expect(e.message).toBe(
      `The clinic's proxy (127.0.0.1:${proxy.port}) asks for a sign-in (407), which Vet Scribe cannot give. Ask IT to let this computer reach ${sandboxHost()} through the proxy without one.`,
    );
    // The window shows the sentence as it is, not "check the network connection".
    expect(toIpcError(e)).toEqual({ code: 'proxy', message: e.message, retryable: true });

    // Signed in while the proxy let it through, then it refuses with a consult queued.
    proxy.refuse(false);
    await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
    const template = await firstTemplateId(core);
    proxy.refuse(true);
    const id = await makeRecording(core);
    await core.pipeline.submit(id, template);
    const waiting = await waitForJob(core, id, (j) => j.waitingFor === 'network' && j.waitingReason !== null);
    expect(waiting.state).not.toBe('failed');
    expect(waiting.waitingReason).toMatch(/^The clinic's proxy \(127\.0\.0\.1:\d+\) asks for a sign-in \(407\)/);
    proxy.refuse(false);
    const done = await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed');
    expect(done.state).toBe('completed');
  });

  it('a proxy that cannot be reached is named, with what to ask IT', async () => {
    const gone = createHttpServer();
    const port = await listen(gone);
    await close(gone);
    core = await startCoreAgainst(sandbox, {
      network: { resolveProxy: () => Promise.resolve(`PROXY 127.0.0.1:${port}`) },
    });
    const e = await failure(core.client.signIn(sandbox.demo.email, sandbox.demo.password));
    expect(e.code).toBe('proxy');
    expect(e.message).toBe(
      `The clinic's proxy (127.0.0.1:${port}) could not be reached (ECONNREFUSED). Ask IT whether this computer's proxy settings are right.`,
    );
  });

  it('proxy settings that cannot be read (a PAC script that fails) say so, and the consult waits', async () => {
    let pacFails = true;
    core = await startCoreAgainst(sandbox, {
      network: {
        resolveProxy: () =>
          pacFails ? Promise.reject(new Error('net::ERR_PAC_SCRIPT_FAILED')) : Promise.resolve('DIRECT'),
      },
    });
    const e = await failure(core.client.signIn(sandbox.demo.email, sandbox.demo.password));
    expect(e.code).toBe('proxy_settings');
    expect(e.message).toBe(
      `This computer's proxy settings could not be read for ${sandboxHost()} (net::ERR_PAC_SCRIPT_FAILED). Ask IT to check the proxy settings or the proxy configuration script (PAC).`,
    );
    pacFails = false;
    await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
    const template = await firstTemplateId(core);
    pacFails = true;
    const id = await makeRecording(core);
    await core.pipeline.submit(id, template);
    const waiting = await waitForJob(core, id, (j) => j.waitingReason !== null);
    expect(waiting).toMatchObject({ state: 'recorded', waitingFor: 'network' });
    pacFails = false;
    expect((await waitForJob(core, id, (j) => j.state === 'completed' || j.state === 'failed')).state).toBe(
      'completed',
    );
  });

  it('a proxy list of SOCKS only is refused with a sentence; a usable entry after it is used', async () => {
    let list = 'SOCKS5 127.0.0.1:1080';
    core = await startCoreAgainst(sandbox, { network: { resolveProxy: () => Promise.resolve(list) } });
    const e = await failure(core.client.signIn(sandbox.demo.email, sandbox.demo.password));
    expect(e.code).toBe('proxy_settings');
    expect(e.message).toMatch(
      /through SOCKS5 127\.0\.0\.1:1080, which Vet Scribe cannot use \(only HTTP and HTTPS proxies\)\. Ask IT/,
    );
    list = `SOCKS5 127.0.0.1:1080; PROXY 127.0.0.1:${proxy.port}`;
    await core.session.signIn(sandbox.demo.email, sandbox.demo.password);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
  });
});

describe('the roots the computer trusts', () => {
  const urls = () => {
    const origin = `https://127.0.0.1:${front.port}`;
    const path = (u: string) => new URL(u).pathname;
    return {
      agentsUrl: origin + path(sandbox.urls.agents_url),
      scribeUrl: origin + path(sandbox.urls.scribe_url),
      agentsApiUrl: origin + path(sandbox.urls.agents_api_url),
    };
  };

  it('a certificate from a root this computer does not trust is a sentence on what to ask IT', async () => {
    const client = new ServiceClient({ urls, network: new Network() });
    const e = await failure(client.signIn(sandbox.demo.email, sandbox.demo.password));
    expect(e.kind).toBe('network');
    expect(e.code).toBe('certificate');
    expect(e.message).toMatch(
      new RegExp(
        `^The connection to 127\\.0\\.0\\.1:${front.port} is not trusted: its certificate was refused \\(.+; [A-Z_]+\\)\\. If the clinic's network inspects secure traffic, ask IT to install its root certificate in this computer's certificate store\\.$`,
      ),
    );
  });

  it('with the root among the trusted ones, sign-in works, directly and through the proxy', async () => {
    const direct = new ServiceClient({ urls, network: new Network({ ca: [certs.ca] }) });
    expect((await direct.signIn(sandbox.demo.email, sandbox.demo.password)).user?.email).toBe(sandbox.demo.email);
    const viaProxy = new Network({
      ca: [certs.ca],
      resolveProxy: () => Promise.resolve(`PROXY 127.0.0.1:${proxy.port}`),
    });
    const proxied = new ServiceClient({ urls, network: viaProxy });
    expect((await proxied.signIn(sandbox.demo.email, sandbox.demo.password)).user?.email).toBe(sandbox.demo.email);
    expect(proxy.tunnels).toContain(`127.0.0.1:${front.port}`);
    await viaProxy.close();
  });

  it('the upload streams through the proxy tunnel to an HTTPS address signed by the trusted root, and an untrusted one is refused', async () => {
    const received: number[] = [];
    const storage = createHttpsServer({ key: certs.key, cert: certs.cert }, (req, res) => {
      let bytes = 0;
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        received.push(bytes);
        res.writeHead(200).end();
      });
    });
    const port = await listen(storage);
    try {
      const file = join(tempDir(), 'audio.webm');
      writeFileSync(file, Buffer.alloc(3 * 1024 * 1024 + 17, 7));
      const network = new Network({
        ca: [certs.ca],
        resolveProxy: () => Promise.resolve(`PROXY 127.0.0.1:${proxy.port}`),
      });
      const client = new ServiceClient({ urls, network });
      await client.upload(`https://localhost:${port}/bucket/key?X-Amz-Signature=abc`, file, null);
      expect(received).toEqual([3 * 1024 * 1024 + 17]);
      expect(proxy.tunnels).toContain(`localhost:${port}`);
      expect(network.uploadAgent({ kind: 'proxy', url: `http://127.0.0.1:${proxy.port}`, label: '' })).toBeInstanceOf(
        HttpsProxyAgent,
      );

      const untrusting = new ServiceClient({
        urls,
        network: new Network({ resolveProxy: () => Promise.resolve(`PROXY 127.0.0.1:${proxy.port}`) }),
      });
      const e = await failure(untrusting.upload(`https://localhost:${port}/bucket/key`, file, null));
      expect(e.code).toBe('certificate');
      expect(received).toHaveLength(1);

      // A proxy that refuses the tunnel is the proxy's refusal, not the storage's answer (a 403
      // from the storage would renew the address). A new route: the first one's tunnel is kept.
      proxy.refuse(true);
      const refusing = new ServiceClient({
        urls,
        network: new Network({ ca: [certs.ca], resolveProxy: () => Promise.resolve(`PROXY 127.0.0.1:${proxy.port}`) }),
      });
      const refused = await failure(refusing.upload(`https://localhost:${port}/bucket/key`, file, null));
      expect(refused.code).toBe('proxy');
      expect(refused.status).toBeUndefined();
      expect(refused.message).toMatch(/asks for a sign-in \(407\)/);
      await network.close();
    } finally {
      await close(storage);
    }
  });
});
