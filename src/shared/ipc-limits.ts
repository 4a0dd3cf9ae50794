// The IPC contract's size limits, in their own zod-free module: the contract's schemas
// (ipc.ts, for main) and the window's client (ipc-client.ts) both read them, and neither
// imports the other for them (ipc.ts once took them from ipc-client.ts, a cycle).
/** The most bytes one recorder chunk carries over IPC. */
export const MAX_CHUNK_BYTES = 1024 * 1024;
/** The most characters of text one agent question carries. */
export const MAX_AGENT_INPUT = 20_000;
