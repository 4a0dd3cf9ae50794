// How the engine reaches the service from a clinic's network: through the proxy the computer is
// set to use (a fixed proxy, a PAC script, or none), trusting the roots of the OS certificate
// store as well as Node's own, so that a TLS-inspecting proxy whose root IT installed is trusted.
//
// The platform answers the two questions (Electron: `session.resolveProxy` and the system roots,
// src/main/index.ts); the engine only routes. Ordinary calls go through undici's Agent or
// ProxyAgent, the upload through node:https with https-proxy-agent's tunnel (upload.ts keeps
// its own buffers, so it cannot share undici's dispatchers).
import type { Agent as HttpAgent } from 'node:http';
import { createSecureContext, type SecureContext } from 'node:tls';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';

export interface NetworkOptions {
  /**
   * The proxy for an address, in the PAC result form Chromium gives: "DIRECT",
   * "PROXY host:port; DIRECT", "HTTPS host:port", "SOCKS5 host:port". Absent: always direct.
   */
  resolveProxy?: (url: string) => Promise<string>;
  /**
   * The roots to trust, PEM, or how to read them when first needed (the OS store takes tens of
   * milliseconds to read, which start-up need not wait for). Absent: Node's bundled roots.
   */
  ca?: string[] | (() => string[] | undefined);
}

export type Route = { kind: 'direct' } | { kind: 'proxy'; url: string; label: string };

const DIRECT: Route = { kind: 'direct' };

/** Why the route to the service could not be chosen (the proxy settings themselves). */
export class ProxySettingsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProxySettingsError';
  }
}

/**
 * The entries of a PAC result, in order. SOCKS entries are kept aside (neither undici nor
 * node:https speaks SOCKS), so that a list naming only SOCKS can be said to be unsupported.
 */
export function parseProxyList(list: string): { routes: Route[]; unsupported: string[] } {
  const routes: Route[] = [];
  const unsupported: string[] = [];
  for (const raw of list.split(';')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const [word = '', hostPort = ''] = entry.split(/\s+/, 2);
    const kind = word.toUpperCase();
    if (kind === 'DIRECT') {
      routes.push(DIRECT);
    } else if ((kind === 'PROXY' || kind === 'HTTP' || kind === 'HTTPS') && /^[^\s/]+:\d{1,5}$/.test(hostPort)) {
      const scheme = kind === 'HTTPS' ? 'https' : 'http';
      routes.push({ kind: 'proxy', url: `${scheme}://${hostPort}`, label: hostPort });
    } else {
      unsupported.push(entry);
    }
  }
  return { routes, unsupported };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

export class Network {
  private readonly options: NetworkOptions;
  private direct: Agent | null = null;
  private readonly proxies = new Map<string, ProxyAgent>();
  private readonly tunnels = new Map<string, HttpsProxyAgent<string>>();

  constructor(options: NetworkOptions = {}) {
    this.options = options;
  }

  private context: { value: SecureContext | undefined } | null = null;

  /**
   * One TLS context holding the roots, made when first needed and shared by every connection:
   * a context of a few hundred roots takes tens of milliseconds to build, which a connection
   * given the bare list would pay each time.
   */
  get secureContext(): SecureContext | undefined {
    if (!this.context) {
      const option = this.options.ca;
      const ca = typeof option === 'function' ? option() : option;
      this.context = { value: ca ? createSecureContext({ ca }) : undefined };
    }
    return this.context.value;
  }

  /** The route for an address: the first entry of the computer's proxy list that can be used. */
  async route(url: string): Promise<Route> {
    if (!this.options.resolveProxy) return DIRECT;
    let list: string;
    try {
      list = await this.options.resolveProxy(url);
    } catch (e) {
      throw new ProxySettingsError(
        `This computer's proxy settings could not be read for ${hostOf(url)} (${(e as Error)?.message || String(e)}). Ask IT to check the proxy settings or the proxy configuration script (PAC).`,
        { cause: e },
      );
    }
    const { routes, unsupported } = parseProxyList(list);
    const first = routes[0];
    if (first) return first;
    if (unsupported.length > 0) {
      throw new ProxySettingsError(
        `This computer's proxy settings send ${hostOf(url)} through ${unsupported.join(', ')}, which Vet Scribe cannot use (only HTTP and HTTPS proxies). Ask IT for an HTTP proxy or a direct route to ${hostOf(url)}.`,
      );
    }
    return DIRECT;
  }

  /** undici's dispatcher for a route: one per proxy, kept for its connections. */
  dispatcher(route: Route): Dispatcher | undefined {
    const secureContext = this.secureContext;
    if (route.kind === 'direct') {
      if (!secureContext) return undefined;
      this.direct ??= new Agent({ connect: { secureContext } });
      return this.direct;
    }
    let agent = this.proxies.get(route.url);
    if (!agent) {
      agent = new ProxyAgent({
        uri: route.url,
        ...(secureContext ? { requestTls: { secureContext }, proxyTls: { secureContext } } : {}),
      });
      this.proxies.set(route.url, agent);
    }
    return agent;
  }

  /** node:https's agent for the upload through a proxy (the tunnel); none for a direct route. */
  uploadAgent(route: Route): HttpAgent | undefined {
    if (route.kind === 'direct') return undefined;
    let agent = this.tunnels.get(route.url);
    if (!agent) {
      const secureContext = this.secureContext;
      agent = new HttpsProxyAgent(route.url, { keepAlive: true, ...(secureContext ? { secureContext } : {}) });
      this.tunnels.set(route.url, agent);
    }
    return agent;
  }

  async close(): Promise<void> {
    const closing: Promise<void>[] = [];
    if (this.direct) closing.push(this.direct.close());
    for (const agent of this.proxies.values()) closing.push(agent.close());
    for (const agent of this.tunnels.values()) agent.destroy();
    this.direct = null;
    this.proxies.clear();
    this.tunnels.clear();
    await Promise.allSettled(closing);
  }
}

/**
 * The roots a clinic computer trusts: Node's own and those of the OS store (Windows' certificate
 * store, the macOS keychain, the Linux distribution's bundle), where IT installs the root of a
 * proxy that inspects secure traffic. Node's `--use-system-ca` would do this, but the app's fuses
 * turn off NODE_OPTIONS. Undefined (Node's roots) where this Node cannot read the store.
 */
export function trustedRoots(
  tls: { getCACertificates?: (type: 'default' | 'system') => string[] },
  log?: (line: string) => void,
): string[] | undefined {
  if (typeof tls.getCACertificates !== 'function') {
    log?.('network: this runtime cannot read the system certificate store; only the bundled roots are trusted');
    return undefined;
  }
  try {
    const system = tls.getCACertificates('system');
    return [...new Set([...tls.getCACertificates('default'), ...system])];
  } catch (e) {
    log?.(
      `network: the system certificate store could not be read (${(e as Error).message}); only the bundled roots are trusted`,
    );
    return undefined;
  }
}

// OpenSSL's and Node's words for a certificate the roots do not vouch for.
const CERTIFICATE_CODES = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

const CERTIFICATE_WORDS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it is for another name',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its root is not one this computer trusts',
};

function causes(e: unknown): (Error & { code?: string })[] {
  const chain: (Error & { code?: string })[] = [];
  let current: unknown = e;
  while (current instanceof Error && chain.length < 8) {
    chain.push(current as Error & { code?: string });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

export interface NetworkFailure {
  code: 'certificate' | 'proxy';
  message: string;
}

/**
 * A failure of the connection that the vet cannot fix by checking the cable: the certificate is
 * not trusted, or the proxy refused or cannot be reached. Each says what to ask IT. Null for
 * anything else (the caller's own wording applies).
 */
export function describeNetworkFailure(e: unknown, url: string, route: Route): NetworkFailure | null {
  const host = hostOf(url);
  const chain = causes(e);
  const certificate = chain.find((c) => c.code !== undefined && CERTIFICATE_CODES.has(c.code));
  if (certificate?.code) {
    const why = CERTIFICATE_WORDS[certificate.code] ?? 'no root this computer trusts vouches for it';
    return {
      code: 'certificate',
      message: `The connection to ${host} is not trusted: its certificate was refused (${why}; ${certificate.code}). If the clinic's network inspects secure traffic, ask IT to install its root certificate in this computer's certificate store.`,
    };
  }
  if (route.kind !== 'proxy') return null;
  // undici's words for a refused tunnel, and the upload's ProxyRefusedError, which uses the same.
  const status = chain
    .map((c) => /Proxy (?:response|Authentication Required) \((\d{3})\)/.exec(c.message)?.[1])
    .find((found) => found !== undefined);
  if (status === '407') {
    return {
      code: 'proxy',
      message: `The clinic's proxy (${route.label}) asks for a sign-in (407), which Vet Scribe cannot give. Ask IT to let this computer reach ${host} through the proxy without one.`,
    };
  }
  if (status) {
    return {
      code: 'proxy',
      message: `The clinic's proxy (${route.label}) refused the connection to ${host} (${status}). Ask IT to allow ${host} through the proxy.`,
    };
  }
  const refused = chain.find(
    (c) =>
      ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'UND_ERR_PRX_TLS'].includes(c.code ?? '') ||
      c.name === 'ProxyConnectionError',
  );
  if (refused) {
    return {
      code: 'proxy',
      message: `The clinic's proxy (${route.label}) could not be reached (${refused.code ?? refused.message}). Ask IT whether this computer's proxy settings are right.`,
    };
  }
  return null;
}

/** Plain words for why a direct connection failed, by the system's code; null when none applies. */
const CONNECTION_WORDS: Record<string, (host: string) => string> = {
  ENOTFOUND: (host) =>
    `The address looks wrong (no such host: ${host}), or this computer is not connected to a network.`,
  EAI_AGAIN: (host) =>
    `The name ${host} could not be looked up just now: this computer may not be connected to a network.`,
  ECONNREFUSED: (host) =>
    `Nothing answers at ${host} (connection refused): the address may be wrong, or the service is down.`,
  ECONNRESET: (host) => `The connection to ${host} was cut.`,
  EPIPE: (host) => `The connection to ${host} was cut.`,
  ETIMEDOUT: (host) => `${host} did not answer the connection (timed out).`,
  ENETUNREACH: (host) => `${host} cannot be reached from this computer (no route to the network).`,
  EHOSTUNREACH: (host) => `${host} cannot be reached from this computer (no route to the host).`,
};

/**
 * The sentence for a connection that failed on the way to `url`, in plain words with the host
 * named ("The address looks wrong (no such host: …)"), never the system's own text
 * ("getaddrinfo ENOTFOUND …"). Null when the failure has no code these words cover.
 */
export function connectionWords(e: unknown, url: string): string | null {
  const host = hostOf(url);
  for (const c of causes(e)) {
    const words = c.code ? CONNECTION_WORDS[c.code] : undefined;
    if (words) return words(host);
  }
  return null;
}
