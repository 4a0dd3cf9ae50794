import { Refusal } from '../platform/index.ts';

/** File-system failures reach callers as Refusal 'io', with the cause attached. */
export async function guard<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await task();
  } catch (e) {
    if (e instanceof Refusal) throw e;
    throw new Refusal('io', `The recording could not be read or written on disk: ${(e as Error).message}`, {
      cause: e,
    });
  }
}
