// A Node process's own inspector (started with `--inspect=127.0.0.1:0`), spoken to over its
// WebSocket with the DevTools protocol: its V8 heap after a full garbage collection and what
// keeps its event loop alive, read from outside so nothing in the app is changed to be measured.
// Playwright's CDP client speaks only to browsers, and the protocol needs no more than a
// request/answer table, so this small client is written here on Node's own WebSocket.

const LISTENING = /Debugger listening on (ws:\/\/\S+)/;

export class NodeInspector {
  private readonly socket: WebSocket;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        result?: unknown;
        error?: { message: string };
      };
      if (message.id === undefined) return;
      const waiter = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    });
  }

  /** Connects to the inspector whose address the process printed on stderr (`stderr()` is read until it has). */
  static async connect(stderr: () => string, timeoutMs = 20_000): Promise<NodeInspector> {
    const until = Date.now() + timeoutMs;
    let url: string | undefined;
    while (!(url = LISTENING.exec(stderr())?.[1])) {
      if (Date.now() > until) throw new Error(`the process printed no inspector address in ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error(`could not open the inspector at ${url}`)), {
        once: true,
      });
    });
    return new NodeInspector(socket);
  }

  send<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** The value of an expression evaluated in the process (JSON-able). */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = await this.send<{ result: { value: T }; exceptionDetails?: { text: string } }>('Runtime.evaluate', {
      expression,
      returnByValue: true,
    });
    if (answer.exceptionDetails) throw new Error(`${expression}: ${answer.exceptionDetails.text}`);
    return answer.result.value;
  }

  /** V8 heap in use after two full collections, bytes. */
  async heapUsedAfterGc(): Promise<number> {
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.collectGarbage');
    const { usedSize } = await this.send<{ usedSize: number }>('Runtime.getHeapUsage');
    return usedSize;
  }

  close(): void {
    this.socket.close();
  }
}
