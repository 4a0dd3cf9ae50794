// The upload (`PUT <presigned url>`) over real loopback sockets: the bytes arrive exactly, progress is
// told, and each way an upload can go wrong ends in the error a caller can act on.
import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener } from 'node:http';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../../../src/main/core/service/client.ts';
import { ServiceError } from '../../../../src/main/core/service/errors.ts';
import { serversEachTest } from '../../../support/http.ts';
import { failure, tempDir } from '../../../support/core.ts';

const listen = serversEachTest();
/** A storage stand-in of the test's own answering with `handler`: the signed upload URL it takes. */
const serve = async (handler: RequestListener): Promise<string> => `${await listen(handler)}/storage/key?sig=abc`;

function fileOf(bytes: number): { path: string; data: Buffer } {
  const data = randomBytes(bytes);
  const path = join(tempDir(), 'audio.webm');
  writeFileSync(path, data);
  return { path, data };
}

const client = (o: { timeoutMs?: number; uploadStallMs?: number } = {}) =>
  new ServiceClient({
    urls: () => ({
      agentsUrl: 'http://127.0.0.1:9',
      scribeUrl: 'http://127.0.0.1:9',
      agentsApiUrl: 'http://127.0.0.1:9',
    }),
    ...o,
  });

describe('upload', () => {
  it('sends the file byte for byte with its length, type and the signed headers, and tells the progress', async () => {
    const { path, data } = fileOf(5 * 1024 * 1024 + 123);
    let seen: {
      sha: string;
      length: string | undefined;
      type: string | undefined;
      extra: string | undefined;
      bytes: number;
    } | null = null;
    const url = await serve((req, res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      req.on('data', (c: Buffer) => {
        hash.update(c);
        bytes += c.length;
      });
      req.on('end', () => {
        seen = {
          sha: hash.digest('hex'),
          length: req.headers['content-length'],
          type: req.headers['content-type'],
          extra: req.headers['x-amz-meta'] as string,
          bytes,
        };
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"Uploaded"}');
      });
    });
    const progress: number[] = [];
    await client().upload(url, path, 'audio/webm;codecs=opus', {
      headers: { 'x-amz-meta': 'signed' },
      onProgress: (p) => progress.push(p.sent),
    });
    expect(seen).toEqual({
      sha: createHash('sha256').update(data).digest('hex'),
      length: String(data.length),
      type: 'audio/webm;codecs=opus',
      extra: 'signed',
      bytes: data.length,
    });
    expect(progress.at(-1)).toBe(data.length);
    expect(progress.length).toBeGreaterThan(5);
    expect([...progress].sort((a, b) => a - b)).toEqual(progress);
  });

  it('gives the service’s refusal with its status, code and words', async () => {
    const { path } = fileOf(3 * 1024 * 1024);
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () =>
        res
          .writeHead(403, { 'content-type': 'application/json' })
          .end('{"detail":"The upload URL has expired.","code":"upload_url_expired"}'),
      );
    });
    const e = await failure(client().upload(url, path, 'audio/webm'));
    expect([e.kind, e.status, e.code, e.message]).toEqual([
      'http',
      403,
      'upload_url_expired',
      'The upload URL has expired.',
    ]);
  });

  it('with no content type sends none, as curl -T does, and the file with its length', async () => {
    const { path, data } = fileOf(2 * 1024 * 1024 + 7);
    let headers: IncomingMessage['headers'] | null = null;
    let bytes = 0;
    const url = await serve((req, res) => {
      req.on('data', (c: Buffer) => (bytes += c.length));
      req.on('end', () => {
        headers = req.headers;
        res.writeHead(200).end();
      });
    });
    await client().upload(url, path, null);
    expect(headers).not.toBeNull();
    expect(headers!['content-type']).toBeUndefined();
    expect(headers!['content-length']).toBe(String(data.length));
    expect(headers!['authorization']).toBeUndefined();
    expect(bytes).toBe(data.length);
  });

  it('reads the storage service’s XML refusals: an expired address (AccessDenied) and a bad signature (SignatureDoesNotMatch)', async () => {
    const { path } = fileOf(256 * 1024);
    const xml = (code: string, message: string) =>
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>4442587FB7D0A2F9</RequestId></Error>`;
    let body = xml('AccessDenied', 'Request has expired');
    const url = await serve((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(403, { 'content-type': 'application/xml' }).end(body));
    });
    const expired = await failure(client().upload(url, path, null));
    expect([expired.kind, expired.operation, expired.status, expired.code]).toEqual([
      'http',
      'upload',
      403,
      'AccessDenied',
    ]);
    expect(expired.message).toBe('The storage service refused the upload: Request has expired (AccessDenied).');
    body = xml(
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
    const unsigned = await failure(client().upload(url, path, null));
    expect([unsigned.status, unsigned.code]).toEqual([403, 'SignatureDoesNotMatch']);
    expect(unsigned.message).toMatch(
      /^The storage service refused the upload: The request signature we calculated does not match .* \(SignatureDoesNotMatch\)\.$/,
    );
    expect(unsigned.message).not.toMatch(/<\/?[A-Z]/);
  });

  it('says the upload made no progress when the other end stops reading', async () => {
    const { path } = fileOf(64 * 1024 * 1024);
    const url = await serve((req) => req.pause());
    const e = await failure(client({ uploadStallMs: 400 }).upload(url, path, 'audio/webm'));
    expect([e.kind, e.message]).toEqual(['timeout', 'The upload made no progress for 0 s.']);
    expect(e.transient).toBe(true);
  });

  it('says the service did not answer when the body went out and no answer came', async () => {
    const { path } = fileOf(100_000);
    const url = await serve((req) => req.resume());
    const e = await failure(client({ timeoutMs: 400 }).upload(url, path, 'audio/webm'));
    expect([e.kind, e.message]).toEqual(['timeout', 'The service did not answer upload in time.']);
  });

  it('is a network error when nothing listens, and a cancelled one when the signal fires', async () => {
    const { path } = fileOf(1000);
    const refused = await failure(client().upload('http://127.0.0.1:9/storage/x', path, 'audio/webm'));
    expect(refused.kind).toBe('network');
    expect(refused.transient).toBe(true);

    const big = fileOf(64 * 1024 * 1024);
    const url = await serve((req) => req.pause());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const cancelled = await failure(client().upload(url, big.path, 'audio/webm', { signal: controller.signal }));
    expect(cancelled.kind).toBe('aborted');
  });

  it('a refused address ends every upload, however the refusal and the file read interleave (none hangs)', async () => {
    // The refusal can arrive while the first part of the file is being read; the request is
    // then destroyed before it ends, and an upload that waited for its end waited for ever
    // (about one in five, here). Each attempt must settle, and quickly.
    const { path } = fileOf(14_611);
    let hung = 0;
    for (let i = 0; i < 200; i++) {
      const outcome = await Promise.race([
        client()
          .upload('http://127.0.0.1:9/storage/x', path, 'audio/webm')
          .then(
            () => 'answered',
            (e: unknown) => (e instanceof ServiceError ? e.kind : 'other'),
          ),
        new Promise<string>((r) => setTimeout(() => r('hung'), 2000)),
      ]);
      if (outcome === 'hung') hung += 1;
      else expect(outcome).toBe('network');
    }
    expect(hung).toBe(0);
  }, 60_000);

  it('refuses an address that is not a URL, or not http(s)', async () => {
    const { path } = fileOf(10);
    expect((await failure(client().upload('not a url', path, 'audio/webm'))).kind).toBe('invalid_answer');
    expect((await failure(client().upload('file:///etc/passwd', path, 'audio/webm'))).kind).toBe('network');
  });
});
