// The Provet Cloud test double's front door: the one instance the sandbox serves under
// `/provet/<provet_id>/`, and what the sandbox, its options and the tests need of it.
export { PROVET_CLIENT_ID, isLoopbackRedirect } from './oauth.ts';
export { PROVET_USERS, CONSULTATION_STATUS, type ProvetNote } from './data.ts';
export { NOTE_FAULTS, type NoteFault } from './notes.ts';
export { DEFAULT_LIMITS } from './limits.ts';
export { parseProvetDate } from './filters.ts';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  PROVET_ID,
  PROVET_PREFIX,
  ProvetInstance,
  type ProvetSettings,
} from './instance.ts';
