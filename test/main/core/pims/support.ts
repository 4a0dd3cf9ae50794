// What the PIMS tests share: the PimsError a promise ends with.
import { PimsError } from '../../../../src/main/core/pims/index.ts';

/** The PimsError `p` ends with; throws when it ends otherwise, so a test cannot pass on a success. */
export async function pimsFailure(p: Promise<unknown>): Promise<PimsError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof PimsError) return e;
    throw e;
  }
  throw new Error('expected a PimsError');
}
