// The PUT of a recording to its presigned address (docs/service.md, "Upload"), streamed from disk through a
// few reused buffers.
//
// Why node:http here, when every other call goes through undici: undici takes a body stream
// and gives no signal when a chunk it was handed has left, so each chunk must be a new buffer.
// Those buffers are external memory, which V8 collects only after about 64 MB of them have
// piled up: an upload of any size then costs the process some 65 MB, and the allocation and
// collection cost about a quarter of the throughput (bench/RESULTS.md). node:http's
// `write(chunk, callback)` says when a chunk is written, so four 1 MiB buffers carry the
// whole file and are read into again only once they are free.
import { open } from 'node:fs/promises';
import { request as httpRequest, type Agent, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { SecureContext } from 'node:tls';

const BUFFER_BYTES = 1024 * 1024;
const BUFFERS = 4;
// The answer to a PUT is a short JSON or XML document; more than this is not read.
const MAX_ANSWER_BYTES = 64 * 1024;

export interface PutFileOptions {
  headers: OutgoingHttpHeaders;
  /** Called as bytes are handed to the network: sent so far, and the file's size. */
  onProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
  /** The upload is given up when no byte has gone out for this long. */
  stallMs: number;
  /** Once the whole file is sent, how long to wait for the answer. */
  answerMs: number;
  /** The proxy's tunnel (network.ts); absent: a direct connection. */
  agent?: Agent;
  /** The TLS context with the roots to trust (network.ts); absent: Node's bundled roots. */
  secureContext?: SecureContext;
}

export interface PutFileAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  text: string;
}

/** The proxy answered the tunnel's CONNECT with something other than 200. */
export class ProxyRefusedError extends Error {
  readonly status: number;
  constructor(status: number) {
    super(`Proxy response (${status}) !== 200 when HTTP Tunneling`);
    this.name = 'ProxyRefusedError';
    this.status = status;
  }
}

/** Why a PUT ended without an answer, for the caller to classify. */
export class PutFileError extends Error {
  readonly kind: 'stalled' | 'no_answer' | 'aborted' | 'network';
  constructor(kind: PutFileError['kind'], message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PutFileError';
    this.kind = kind;
  }
}

export async function putFile(
  url: URL,
  filePath: string,
  size: number,
  options: PutFileOptions,
): Promise<PutFileAnswer> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new PutFileError('network', `an upload address must be http(s), not ${url.protocol}`);
  if (options.signal?.aborted) throw new PutFileError('aborted', 'the upload was cancelled');
  const file = await open(filePath, 'r');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req = send(url, {
    method: 'PUT',
    headers: { ...options.headers, 'content-length': String(size) },
    ...(options.agent ? { agent: options.agent } : {}),
    ...(options.secureContext ? { secureContext: options.secureContext } : {}),
  });

  let failure: PutFileError | null = null;
  const fail = (error: PutFileError) => {
    failure ??= error;
    req.destroy(error);
  };
  const onAbort = () => fail(new PutFileError('aborted', 'the upload was cancelled'));
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // https-proxy-agent replays a refused CONNECT's answer as if the storage had said it: the
  // proxy's 403 would read as an expired address. Its own event tells them apart.
  req.once('proxyConnect', (connect: { statusCode?: number }) => {
    const status = connect.statusCode ?? 0;
    if (status !== 200)
      fail(
        new PutFileError('network', `the proxy refused the tunnel (${status})`, {
          cause: new ProxyRefusedError(status),
        }),
      );
  });
  // Socket idle time: while the body goes out, no byte for stallMs; after it, no answer.
  req.setTimeout(options.stallMs, () => {
    fail(
      bodySent
        ? new PutFileError('no_answer', 'no answer to the upload in time')
        : new PutFileError('stalled', 'the upload made no progress'),
    );
  });
  let bodySent = false;

  let responded = false;
  const answer = new Promise<PutFileAnswer>((resolve, reject) => {
    req.on('error', (e) => {
      // Once the service has answered, a broken connection does not undo what it said.
      if (!responded)
        reject(failure ?? new PutFileError('network', (e as Error).message || 'network error', { cause: e }));
    });
    req.on('response', (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      let kept = 0;
      const settle = () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      res.on('data', (chunk: Buffer) => {
        if (kept < MAX_ANSWER_BYTES) chunks.push(chunk.subarray(0, MAX_ANSWER_BYTES - kept));
        kept += chunk.length;
      });
      res.on('end', settle);
      // An answer cut short still has its status.
      res.on('close', settle);
      res.on('error', () => {});
    });
  });
  // A service may answer (and close) before the body is done, e.g. 403 for an expired address:
  // the answer wins, and the writes still pending end with an error nobody needs.
  answer.catch(() => {});

  try {
    await pump(req, file, size, options.onProgress, () => failure);
    bodySent = true;
    req.setTimeout(options.answerMs);
    return await answer;
  } catch (e) {
    if (failure) throw failure;
    // The service closed the connection while the body was still going out: its answer, if it
    // gave one, says why.
    // Else the request's own error says what broke (a refused certificate, a proxy), which the
    // write loop only saw as a closed connection.
    const early = await Promise.race([
      answer.then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
      new Promise<null>((r) => setTimeout(() => r(null), 1000)),
    ]);
    if (early && 'value' in early) return early.value;
    if (early?.error instanceof PutFileError) throw early.error;
    throw e instanceof PutFileError ? e : new PutFileError('network', (e as Error).message, { cause: e });
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    await file.close();
  }
}

/** Reads the file into the free buffers and writes each; a buffer is free again once written. */
async function pump(
  req: ReturnType<typeof httpRequest>,
  file: Awaited<ReturnType<typeof open>>,
  size: number,
  onProgress: PutFileOptions['onProgress'],
  failed: () => PutFileError | null,
): Promise<void> {
  const free: Buffer<ArrayBuffer>[] = Array.from({ length: BUFFERS }, () => Buffer.allocUnsafeSlow(BUFFER_BYTES));
  let wake: (() => void) | null = null;
  let writeError: Error | null = null;
  let written = 0;
  const settle = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  req.on('close', settle);
  // Why the upload cannot go on: its own failure, a write that failed, or a closed connection.
  const stopReason = (): Error | null =>
    failed() ?? writeError ?? (req.destroyed ? new Error('the connection closed during the upload') : null);
  let position = 0;
  while (position < size) {
    while (free.length === 0 && !stopReason()) await new Promise<void>((r) => (wake = r));
    const stop = stopReason();
    if (stop) throw stop;
    const buffer = free.pop() as Buffer<ArrayBuffer>;
    const { bytesRead } = await file.read(buffer, 0, Math.min(BUFFER_BYTES, size - position), position);
    if (bytesRead === 0) throw new PutFileError('network', `the recording is shorter than its ${size} bytes`);
    // The connection may have failed while the file was read (a refused address fails at once).
    const gone = stopReason();
    if (gone) throw gone;
    position += bytesRead;
    req.write(buffer.subarray(0, bytesRead), (e) => {
      if (e) writeError ??= e;
      else {
        written += bytesRead;
        onProgress?.(written, size);
      }
      free.push(buffer);
      settle();
    });
  }
  // A request destroyed before or while it ends calls no end callback and may emit no further
  // 'error' (it already did): its 'close' settles the wait, or the upload would hang for ever.
  await new Promise<void>((resolve, reject) => {
    const closed = () => reject(stopReason() ?? new Error('the connection closed during the upload'));
    if (req.destroyed) {
      closed();
      return;
    }
    req.once('error', reject);
    req.once('close', closed);
    req.end(() => {
      req.off('close', closed);
      resolve();
    });
  });
  const stop = failed() ?? writeError;
  if (stop) throw stop;
}
