// What every route module shares: the server's parts they are given, the path prefixes and where
// each published operation is served, the signed-in user of a request, the required-version
// header and the published page.
import {
  API_VERSION_HEADER,
  apiOperation,
  requestSchemas,
  type ApiOperation,
  type ServiceBase,
} from '../../shared/service/index.ts';
import type { PageWire } from '../../shared/service/wire.ts';
import type { AccessClaims, Auth } from '../auth.ts';
import type { ChatMemory } from '../chat.ts';
import { ApiError, bearerToken, invalid, type Handler, type RequestContext, type Router } from '../http.ts';
import type { SandboxOptions } from '../options.ts';
import type { ScribeJobs } from '../scribe-jobs.ts';
import type { StateStore } from '../state.ts';
import type { Uploads } from '../uploads.ts';

export const PREFIX = { agents: '/agents', scribe: '/scribe', agentsApi: '/agents-api', storage: '/storage' } as const;

/** Each base address of the service, as the prefix the sandbox serves it under. */
const BASE_PREFIX: Record<ServiceBase, string> = {
  agentsUrl: PREFIX.agents,
  scribeUrl: PREFIX.scribe,
  agentsApiUrl: PREFIX.agentsApi,
};

/**
 * Where the sandbox serves a published operation: its base's prefix, then its path from the
 * table of operations, each `{name}` parameter written as the router's `:name`.
 */
export function sandboxPath(operation: ApiOperation): string {
  const { base, path } = apiOperation(operation);
  return `${BASE_PREFIX[base]}${path.replace(/\{([^}/]+)\}/g, ':$1')}`;
}

/** Serves a published operation at its method and path from the table of operations. */
export function serve(router: Router, operation: ApiOperation, handler: Handler): void {
  router.add(apiOperation(operation).method, sandboxPath(operation), handler);
}

/**
 * The operations whose `X-API-Version` the OpenAPI document marks required (the others list no
 * such parameter): FastAPI answers its absence 422, in one list with the body's faults.
 */
export const VERSIONED = { headers: [API_VERSION_HEADER] } as const;

export const schemas = requestSchemas;

export interface Counters {
  requests: number;
  byRoute: Record<string, number>;
  injected503: number;
  droppedConnections: number;
  rateLimited: number;
  signIns: number;
  refreshes: number;
  refreshReplays: number;
  refreshReuseDetected: number;
  scribeRequests: number;
  scribeReplays: number;
  uploads: number;
}

/** The server's parts, handed to each route module. */
export interface ServerParts {
  options: SandboxOptions;
  store: StateStore;
  auth: Auth;
  uploads: Uploads;
  jobs: ScribeJobs;
  origin: () => string;
  random: () => number;
  counters: Counters;
  /** The clinical assistant's conversations (one is made when none is given). */
  chat?: ChatMemory;
}

/** The account a request's bearer token belongs to; 401 without a valid one. */
export function signedInUser(auth: Auth, ctx: RequestContext): Promise<AccessClaims> {
  return auth.authenticate(bearerToken(ctx.req));
}

/** A published page (templates, scribes, recording sessions): has_next, no total. */
export function page<T>(all: readonly T[], url: URL): PageWire<T> {
  const current = intParam(url, 'page', 1, 1, 1_000_000);
  const limit = intParam(url, 'limit', 50, 1, 100);
  return {
    items: all.slice((current - 1) * limit, current * limit),
    has_next: current * limit < all.length,
    current_page: current,
    items_per_page: limit,
  };
}

/** A whole-number query parameter, refused as FastAPI refuses `Query(ge=min, le=max)`. */
function intParam(url: URL, name: string, fallback: number, min: number, max: number): number {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const loc = ['query', name];
  if (!/^\s*[-+]?\d+\s*$/.test(raw))
    throw invalid([
      { loc, msg: 'Input should be a valid integer, unable to parse string as an integer', type: 'int_parsing' },
    ]);
  const n = Number(raw);
  if (n < min)
    throw invalid([{ loc, msg: `Input should be greater than or equal to ${min}`, type: 'greater_than_equal' }]);
  if (n > max) throw invalid([{ loc, msg: `Input should be less than or equal to ${max}`, type: 'less_than_equal' }]);
  return n;
}

/** How many items the 'thousands' list fault adds to a list. */
export const THOUSANDS = 5_000;

/**
 * A page of GET /scribe/all or GET /recording-sessions/all, as published, or as the list fault
 * the sandbox was started with pages it wrongly; `extra(i)` makes the i-th added item.
 */
export function listPage<T>(
  all: readonly T[],
  url: URL,
  options: SandboxOptions,
  extra: (i: number) => T,
): PageWire<T> {
  switch (options.listFault) {
    case 'none':
      return page(all, url);
    case 'fail':
      throw new ApiError(503, 'unavailable', 'The list is not available right now.');
    case 'thousands':
      return page([...all, ...Array.from({ length: THOUSANDS }, (_, i) => extra(i))], url);
    case 'empty-page': {
      const answer = page(all, url);
      return answer.current_page >= 2 ? { ...answer, items: [], has_next: true } : { ...answer, has_next: true };
    }
    case 'repeat': {
      const answer = page(all, url);
      const before = all[(answer.current_page - 1) * answer.items_per_page - 1];
      return before === undefined ? answer : { ...answer, items: [before, ...answer.items] };
    }
  }
}
