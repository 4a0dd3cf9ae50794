// The clinic's list through the window's calls, as the clinic's tests read it.
import type { HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import type { ClinicConsult, ClinicView } from '../../../../src/shared/clinic.ts';
import { ok } from '../support.ts';

/** The clinic's consults read again from the service (clinic:refresh). */
export const refresh = (h: HandlerTable) => ok<ClinicView>(h['clinic:refresh'](undefined));

/** The clinic's consults as last kept (clinic:list). */
export const list = (h: HandlerTable) => ok<ClinicView>(h['clinic:list'](undefined));

/** Every note of the list once: the rows of a note and each visit's candidate notes (a note may be two visits'). */
export const notesIn = (consults: readonly ClinicConsult[]): ClinicConsult[] => [
  ...new Map(
    [...consults, ...consults.flatMap((c) => c.candidates ?? [])]
      .filter((c) => c.scribeId !== null)
      .map((c) => [c.key, c]),
  ).values(),
];
