// The route and the words of network.ts as plain functions: the PAC result forms Chromium gives
// (session.resolveProxy) and the failures a clinic network produces.
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { ServiceClient } from '../../../../src/main/core/service/client.ts';
import {
  connectionWords,
  describeNetworkFailure,
  parseProxyList,
  trustedRoots,
  type Route,
} from '../../../../src/main/core/service/network.ts';
import { ProxyRefusedError } from '../../../../src/main/core/service/upload.ts';

describe('parseProxyList', () => {
  it('reads DIRECT, PROXY, HTTP and HTTPS entries in order', () => {
    expect(parseProxyList('DIRECT')).toEqual({ routes: [{ kind: 'direct' }], unsupported: [] });
    expect(parseProxyList('PROXY proxy.clinic.lan:3128; DIRECT')).toEqual({
      routes: [
        { kind: 'proxy', url: 'http://proxy.clinic.lan:3128', label: 'proxy.clinic.lan:3128' },
        { kind: 'direct' },
      ],
      unsupported: [],
    });
    expect(parseProxyList('HTTPS secure.clinic.lan:443').routes).toEqual([
      { kind: 'proxy', url: 'https://secure.clinic.lan:443', label: 'secure.clinic.lan:443' },
    ]);
    expect(parseProxyList(' proxy  10.0.0.1:8080 ;').routes).toEqual([
      { kind: 'proxy', url: 'http://10.0.0.1:8080', label: '10.0.0.1:8080' },
    ]);
  });

  it('keeps SOCKS and malformed entries aside', () => {
    expect(parseProxyList('SOCKS5 127.0.0.1:1080; SOCKS 127.0.0.1:1081')).toEqual({
      routes: [],
      unsupported: ['SOCKS5 127.0.0.1:1080', 'SOCKS 127.0.0.1:1081'],
    });
    expect(parseProxyList('PROXY nohostport; DIRECT')).toEqual({
      routes: [{ kind: 'direct' }],
      unsupported: ['PROXY nohostport'],
    });
    expect(parseProxyList('')).toEqual({ routes: [], unsupported: [] });
  });
});

describe('describeNetworkFailure', () => {
  const proxy: Route = { kind: 'proxy', url: 'http://proxy.clinic.lan:3128', label: 'proxy.clinic.lan:3128' };
  const direct: Route = { kind: 'direct' };
  const coded = (code: string, message = code) => Object.assign(new Error(message), { code });

  it('names an untrusted certificate, under any cause, and what to ask IT', () => {
    const wrapped = new Error('fetch failed', {
      cause: coded('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
    });
    expect(describeNetworkFailure(wrapped, 'https://api.example.com/x', direct)).toEqual({
      code: 'certificate',
      message:
        "The connection to api.example.com is not trusted: its certificate was refused (its root is not one this computer trusts; SELF_SIGNED_CERT_IN_CHAIN). If the clinic's network inspects secure traffic, ask IT to install its root certificate in this computer's certificate store.",
    });
    expect(describeNetworkFailure(coded('CERT_HAS_EXPIRED'), 'https://api.example.com', proxy)?.message).toMatch(
      /\(it has expired; CERT_HAS_EXPIRED\)/,
    );
  });

  it('tells a proxy sign-in (407) from another refusal, from undici and from the upload tunnel', () => {
    expect(
      describeNetworkFailure(
        new Error('Proxy response (407) !== 200 when HTTP Tunneling'),
        'https://api.example.com/x',
        proxy,
      )?.message,
    ).toBe(
      "The clinic's proxy (proxy.clinic.lan:3128) asks for a sign-in (407), which Vet Scribe cannot give. Ask IT to let this computer reach api.example.com through the proxy without one.",
    );
    expect(
      describeNetworkFailure(
        new Error('x', { cause: new ProxyRefusedError(403) }),
        'https://bucket.example.com/k',
        proxy,
      )?.message,
    ).toBe(
      "The clinic's proxy (proxy.clinic.lan:3128) refused the connection to bucket.example.com (403). Ask IT to allow bucket.example.com through the proxy.",
    );
  });

  it('an unreachable proxy is the proxy; the same error on a direct route is left to the caller', () => {
    expect(describeNetworkFailure(coded('ECONNREFUSED'), 'https://api.example.com', proxy)).toEqual({
      code: 'proxy',
      message:
        "The clinic's proxy (proxy.clinic.lan:3128) could not be reached (ECONNREFUSED). Ask IT whether this computer's proxy settings are right.",
    });
    expect(describeNetworkFailure(coded('ECONNREFUSED'), 'https://api.example.com', direct)).toBeNull();
    expect(describeNetworkFailure(coded('ETIMEDOUT'), 'https://api.example.com', proxy)).toBeNull();
  });
});

describe('trustedRoots', () => {
  it("adds the system store's roots to Node's own, once each", async () => {
    const tls = await import('node:tls');
    const roots = trustedRoots(tls);
    const system = tls.getCACertificates('system');
    expect(roots).toBeDefined();
    expect(new Set(roots)).toEqual(new Set([...tls.getCACertificates('default'), ...system]));
    expect(roots).toHaveLength(new Set(roots).size);
  });

  it('falls back to the bundled roots, with a log line, where the store cannot be read', () => {
    const lines: string[] = [];
    expect(trustedRoots({}, (l) => lines.push(l))).toBeUndefined();
    expect(
      trustedRoots(
        {
          getCACertificates: (type) => {
            if (type === 'system') throw new Error('keychain locked');
            return ['x'];
          },
        },
        (l) => lines.push(l),
      ),
    ).toBeUndefined();
    expect(lines).toEqual([
      'network: this runtime cannot read the system certificate store; only the bundled roots are trusted',
      'network: the system certificate store could not be read (keychain locked); only the bundled roots are trusted',
    ]);
  });
});

describe('connectionWords', () => {
  it('says a wrong host in words, naming it, under any cause, and leaves an unknown failure to the caller', () => {
    const notFound = Object.assign(new Error('getaddrinfo ENOTFOUND scribe.clinc.example'), { code: 'ENOTFOUND' });
    const wrapped = new TypeError('fetch failed', { cause: notFound });
    expect(connectionWords(wrapped, 'https://scribe.clinc.example/auth/sign-in')).toBe(
      'The address looks wrong (no such host: scribe.clinc.example), or this computer is not connected to a network.',
    );
    expect(connectionWords(new Error('something else'), 'https://a.example/')).toBeNull();
  });

  it('a sign-in to an address where nothing listens says so in words, with no system text', async () => {
    // A port that was free a moment ago: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await new Promise((resolve) => server.close(resolve));
    const base = `http://127.0.0.1:${port}`;
    const client = new ServiceClient({
      urls: () => ({ agentsUrl: base, scribeUrl: base, agentsApiUrl: base }),
      timeoutMs: 5000,
    });
    const e = (await client.signIn('vet@clinic.test', 'pw').catch((x: unknown) => x)) as Error;
    expect(e.message).toMatch(
      new RegExp(
        `: Nothing answers at 127\\.0\\.0\\.1:${port} \\(connection refused\\): the address may be wrong, or the service is down\\.$`,
      ),
    );
    expect(e.message).not.toMatch(/ECONNREFUSED|fetch failed|connect /);
  });
});
