// The remote service as the engine calls it: one client method per published operation, how a
// call travels (undici, proxies, the system's roots), its errors, the upload of a recording, and
// paged lists read to their end.
// The only way in from outside this folder (test/architecture/layers.test.ts checks it).
export { ServiceClient, type ServiceUrls } from './client.ts';
export { ServiceError, isNetworkSetupFailure } from './errors.ts';
export {
  Network,
  trustedRoots,
  connectionWords,
  describeNetworkFailure,
  type NetworkOptions,
  type Route,
} from './network.ts';
export { readAllPages } from './pages.ts';
export { unreachable } from './reach.ts';
