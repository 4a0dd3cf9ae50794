// The way to the clinic relay: the app's own, as the service's calls take it (the proxy this
// computer is set to use, the clinic's roots of trust, service/network.ts), so a relay behind
// the clinic's proxy or TLS inspection is reached as the service is, and a failure on the way
// says what to ask IT rather than the system's words.
import type { Dispatcher } from 'undici';
import { connectionWords, describeNetworkFailure, type Network, type Route } from '../service/index.ts';

export interface RelayWay {
  route: Route;
  /** The request option naming the dispatcher, or none (undici's own: direct, Node's roots). */
  options: { dispatcher?: Dispatcher };
}

/** The route and dispatcher for `url`; straight to it without a network. Proxy settings that cannot be used throw, in words. */
export async function relayWay(
  network: Pick<Network, 'route' | 'dispatcher'> | undefined,
  url: URL,
): Promise<RelayWay> {
  if (!network) return { route: { kind: 'direct' }, options: {} };
  const route = await network.route(url.href);
  const dispatcher = network.dispatcher(route);
  return { route, options: dispatcher ? { dispatcher } : {} };
}

/** A failure on the way to `url` in plain words (the proxy, the certificate, the connection); null when none apply. */
export function wayFailure(e: unknown, url: URL, route: Route): string | null {
  return describeNetworkFailure(e, url.href, route)?.message ?? connectionWords(e, url.href);
}

/**
 * A plain-HTTP relay's request is forwarded by the proxy, which answers a refusal itself as the
 * status of the request (a tunnel's refusal is an error, `wayFailure`): said as the proxy's.
 */
export function proxyAnswer(status: number, url: URL, route: Route): string | null {
  if (route.kind !== 'proxy') return null;
  if (status === 407)
    return `The clinic's proxy (${route.label}) asks for a sign-in (407), which Vet Scribe cannot give. Ask IT to let this computer reach ${url.host} through the proxy without one.`;
  if (status === 502 || status === 504)
    return `The clinic's proxy (${route.label}) could not reach ${url.host} (${status}). Ask IT whether the relay's address is right and allowed through the proxy.`;
  return null;
}
