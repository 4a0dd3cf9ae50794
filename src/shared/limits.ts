// Every size limit the app holds its input to, in one zod-free module that main, the
// window and the tests all import: the IPC contract's schemas (ipc.ts), the window's
// client (ipc-client.ts) and the form fields read the same numbers, so a limit changes in
// one place. (ipc.ts once took its limits from ipc-client.ts, an import cycle.)

/** The most bytes one recorder chunk carries over IPC. */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** The most characters of text one agent question carries. */
export const MAX_AGENT_INPUT = 20_000;
/** The most characters of a patient's name; the service's `POST /recording-sessions/create` takes no more. */
export const MAX_PATIENT_NAME = 200;
/** Other pets recorded in one visit with the first (a litter's vaccinations). */
export const MAX_PETS = 9;
/** The most characters of a consult's description (the same operation's `description`). */
export const MAX_DESCRIPTION = 2000;
/** The most characters of a short label the vet types (a document's title, a search). */
export const MAX_LABEL = 200;
/** The fewest characters of a webhook's signing secret. */
export const MIN_WEBHOOK_SECRET = 16;
/** The most characters of a template's id, as the window sends it and the settings keep the last one. */
export const MAX_TEMPLATE_ID = 200;
/** The most characters of a web address the vet types (a service, a webhook, an update feed). */
export const MAX_URL = 2048;
/** The most characters of a secret the vet types (a password, a webhook's signing secret). */
export const MAX_SECRET = 1024;
/** The most characters of an e-mail address (RFC 5321's path limit). */
export const MAX_EMAIL = 254;
/** The most characters of one message to the clinical assistant about a consult. */
export const MAX_CHAT_MESSAGE = 4000;
/**
 * The most characters of the note sent as a conversation's context (`target_context`): a longer
 * note is cut to its start, and the vet is told. The sandbox refuses more.
 */
export const MAX_CHAT_CONTEXT = 16_000;
/** The most characters of one answer of the assistant kept; a longer one is cut, and the vet is told. */
export const MAX_CHAT_ANSWER = 20_000;
