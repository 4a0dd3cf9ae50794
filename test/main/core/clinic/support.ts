// The clinic's list through the window's calls, as the clinic's tests read it.
import type { HandlerTable } from '../../../../src/main/core/ipc-handlers.ts';
import type { ClinicView } from '../../../../src/shared/clinic.ts';
import { ok } from '../support.ts';

/** The clinic's consults read again from the service (clinic:refresh). */
export const refresh = (h: HandlerTable) => ok<ClinicView>(h['clinic:refresh'](undefined));

/** The clinic's consults as last kept (clinic:list). */
export const list = (h: HandlerTable) => ok<ClinicView>(h['clinic:list'](undefined));
