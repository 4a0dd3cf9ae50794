// Whether anything answers at an address, asked before the app is told to use it: a change of
// service signs the vet out, so an address where nothing answers is said before, not found after
// (a sign-in that fails on "no such host"). Any HTTP answer counts, even 404: the address is a
// base, not an operation. It goes the way the service's calls go (the proxy, the trusted roots).
import { request } from 'undici';
import { connectionWords, describeNetworkFailure, type Network, ProxySettingsError } from './network.ts';

/** How long an address is given to answer; a vet is waiting on Save. */
export const REACH_TIMEOUT_MS = 8_000;

/** Null when something answers at `url`; otherwise why not, in plain words with the host named. */
export async function unreachable(network: Network, url: string, timeoutMs = REACH_TIMEOUT_MS): Promise<string | null> {
  let route;
  try {
    route = await network.route(url);
  } catch (e) {
    if (e instanceof ProxySettingsError) return e.message;
    throw e;
  }
  try {
    const answer = await request(url, {
      method: 'GET',
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      dispatcher: network.dispatcher(route),
    });
    await answer.body.dump();
    return null;
  } catch (e) {
    const failure = describeNetworkFailure(e, url, route);
    if (failure) return failure.message;
    const words = connectionWords(e, url);
    if (words) return words;
    const err = e as Error & { code?: string };
    if (err.name === 'TimeoutError' || err.name === 'AbortError' || /TIMEOUT/.test(err.code ?? ''))
      return `${new URL(url).host} did not answer within ${Math.round(timeoutMs / 1000)} seconds.`;
    return `It could not be reached (${err.message || err.code || 'network error'}).`;
  }
}
