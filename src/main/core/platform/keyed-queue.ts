// Calls for one key run one after another, in the order they were made; keys do not wait for
// each other, and an idle key leaves nothing behind. A promise chain per key: p-limit and
// p-queue limit one queue as a whole, not one per key, and the chain is all that is needed.
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Whether anything for `key` is queued or running. */
  busy(key: string): boolean {
    return this.tails.has(key);
  }
}
