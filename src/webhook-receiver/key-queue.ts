// Copies of one delivery that reach this process together are handled one after the other, not
// side by side. The second learns the first's outcome by claiming after it: a duplicate if the
// first was handled, its own attempt if the first failed. Answering it "duplicate" while the
// first was still running lost the event whenever the first then failed, since the sender had
// stopped retrying the copy.

export const BUSY = Symbol('busy');

export class KeyQueue {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs task after every earlier task of the key; BUSY when those took longer than waitMs. */
  async run<T>(key: string, waitMs: number, task: () => Promise<T>): Promise<T | typeof BUSY> {
    const before = this.tails.get(key);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    // A copy that gives up still leaves the next one behind the task it was waiting for.
    const tail = before ? before.then(() => mine) : mine;
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    try {
      if (before && !(await settlesWithin(before, waitMs))) return BUSY;
      return await task();
    } finally {
      done();
    }
  }

  /** How many keys have a task running or waiting (for tests). */
  get size(): number {
    return this.tails.size;
  }
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}
