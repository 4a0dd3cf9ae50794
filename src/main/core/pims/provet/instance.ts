// A clinic's Provet Cloud instance from the address its IT types in: `https://<domain>/<provet_id>`
// (provetcloud.com, us.provetcloud.com, …), and every address the app derives from it, each
// with Provet's trailing slash. Plain http only on this computer's own loopback, for the
// built-in sandbox; anything else is refused with a sentence that says what is wrong.
import type { OAuthClient } from '../oauth.ts';
import { PimsError } from '../port.ts';

export interface ProvetInstance {
  /** `https://<domain>/<provet_id>/`, the key of the vet's sign-in to it. */
  base: string;
  /** The REST API's root, `<base>api/0.1/`. */
  api: string;
  authorizeUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  /** OpenID Connect's userinfo: who signed in. */
  userInfoUrl: string;
}

const EXAMPLE = 'https://provetcloud.com/12345';
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
// Provet's instance ids are numbers in every published example; letters, '-' and '_' are let
// through as well in case an instance is named, nothing that needs escaping in a path.
const SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;

function bad(why: string): PimsError {
  return new PimsError('bad_input', `${why} A Provet address looks like ${EXAMPLE}.`);
}

export function provetInstance(address: string): ProvetInstance {
  const text = address.trim();
  if (text === '') throw bad('The Provet address is empty.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad(`"${text.slice(0, 80)}" is not a web address.`);
  }
  const loopback = LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw bad('The Provet address must start with https:// (plain http is only for a test server on this computer).');
  if (url.username || url.password) throw bad('The Provet address must not hold a user name or password.');
  if (url.search || url.hash)
    throw bad('The Provet address must end at the clinic\'s number, with no "?" or "#" part.');
  const segments = url.pathname.split('/').filter((s) => s !== '');
  // On Provet's own servers the path is the instance id alone; a test server on this computer may
  // serve Provet under a path of its own, so more than one segment is allowed there.
  if (segments.length === 0) throw bad("The Provet address is missing the clinic's number after the domain.");
  if (segments.length > 1 && !loopback)
    throw bad("The Provet address must end at the clinic's number: leave out anything after it (such as /api/0.1/).");
  if (!segments.every((s) => SEGMENT.test(s)))
    throw bad("The clinic's number in the Provet address has characters it cannot have.");
  const base = `${url.origin}/${segments.join('/')}/`;
  return {
    base,
    api: `${base}api/0.1/`,
    authorizeUrl: `${base}oauth2/authorize/`,
    tokenUrl: `${base}oauth2/token/`,
    revokeUrl: `${base}oauth2/revoke_token/`,
    userInfoUrl: `${base}oauth2/userinfo/`,
  };
}

const CLIENT_ID = /^[\x21-\x7e]{1,255}$/;

/** The OAuth client of the app at one instance, with the client ID Provet's support issued. */
export function provetOAuthClient(instance: ProvetInstance, clientId: string): OAuthClient {
  const id = clientId.trim();
  if (!CLIENT_ID.test(id))
    throw new PimsError(
      'bad_input',
      id === ''
        ? "The Provet client ID is empty: Provet's support issues it when the integration is set up."
        : 'The Provet client ID has spaces or characters a client ID cannot have: copy it again as Provet sent it.',
    );
  return {
    clientId: id,
    authorizeUrl: instance.authorizeUrl,
    tokenUrl: instance.tokenUrl,
    revokeUrl: instance.revokeUrl,
    name: 'Provet',
  };
}
