// The service's API version, sent by the client on every call and checked by the sandbox:
// declared once so the two cannot disagree.

/** The header that carries it, as Node spells incoming header names (lower case). */
export const API_VERSION_HEADER = 'x-api-version';
/** The version this app speaks. */
export const API_VERSION = 'v1';
