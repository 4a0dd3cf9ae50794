// The IPC contract, part by part: each domain declares its own calls and events, with their
// schemas and the shapes they answer, in its own file here. `src/shared/ipc.ts` puts the parts
// together into the one table that main, the preload, the window and the browser host read.
export * from './agents.ts';
export * from './clinic.ts';
export * from './computer.ts';
export * from './consults.ts';
export * from './fields.ts';
export * from './pims.ts';
export * from './relay.ts';
