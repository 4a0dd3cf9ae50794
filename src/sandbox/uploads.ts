// Presigned upload addresses (row 6) and the PUT that uses them (row 7), as an object store
// would: the address carries its expiry, the content type it was signed for and an HMAC of
// both; the body is streamed to disk, never held in memory, and refused past the size limit.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, openSync, readSync, closeSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import { Decoder } from 'ts-ebml';
import { ApiError } from './http.ts';
import type { StateStore, UploadRecord } from './state.ts';

export interface UploadOptions {
  uploadTtlSeconds: number;
  maxUploadBytes: number;
  dir: string;
}

const normalizeType = (t: string) => t.toLowerCase().replace(/\s+/g, '');

export class Uploads {
  private readonly secret: Buffer;
  private readonly store: StateStore;
  private readonly options: UploadOptions;
  constructor(store: StateStore, options: UploadOptions) {
    this.store = store;
    this.options = options;
    this.secret = Buffer.from(store.state.upload_secret, 'base64');
    mkdirSync(options.dir, { recursive: true });
  }

  private sign(fileKey: string, expires: number, contentType: string): string {
    return createHmac('sha256', this.secret).update(`${fileKey}\n${expires}\n${normalizeType(contentType)}`).digest('hex');
  }

  create(origin: string, sessionId: string, fileName: string, contentType: string) {
    const safeName = fileName.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'audio';
    const fileKey = `recordings/${sessionId}/${randomUUID()}/${safeName}`;
    const expiresAt = Math.floor(Date.now() / 1000) + this.options.uploadTtlSeconds;
    const record: UploadRecord = {
      file_key: fileKey,
      recording_session_public_id: sessionId,
      file_name: fileName,
      content_type: contentType,
      created_at: new Date().toISOString(),
      uploaded: null,
    };
    this.store.state.uploads[fileKey] = record;
    this.store.save();
    const query = new URLSearchParams({ expires: String(expiresAt), content_type: contentType, signature: this.sign(fileKey, expiresAt, contentType) });
    return { upload_url: `${origin}/storage/${encodeURIComponent(fileKey)}?${query}`, file_key: fileKey, expires_at: expiresAt };
  }

  pathOf(fileKey: string): string {
    return join(this.options.dir, createHash('sha256').update(fileKey).digest('hex'));
  }

  /** Row 7: checks the presigned address, then streams the body to disk. */
  async put(req: IncomingMessage, fileKey: string, query: URLSearchParams): Promise<{ size: number; sha256: string }> {
    const expires = Number(query.get('expires'));
    const signedType = query.get('content_type') ?? '';
    const signature = query.get('signature') ?? '';
    const expected = Buffer.from(this.sign(fileKey, expires, signedType), 'hex');
    const given = Buffer.from(signature, 'hex');
    if (!Number.isFinite(expires) || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError(403, 'signature_mismatch', 'The upload address is not valid: its signature does not match. Ask for a new upload URL.');
    }
    if (Date.now() / 1000 > expires) {
      throw new ApiError(403, 'upload_url_expired', 'The upload address has expired. Ask for a new upload URL.');
    }
    const record = this.store.state.uploads[fileKey];
    if (!record) throw new ApiError(404, 'not_found', 'No upload was prepared for this file key.');
    const sentType = req.headers['content-type'] ?? '';
    if (normalizeType(sentType) !== normalizeType(signedType)) {
      throw new ApiError(
        403,
        'content_type_mismatch',
        `Content-Type ${sentType ? `"${sentType}"` : '(none)'} does not match the "${signedType}" the upload address was signed for.`,
      );
    }
    const declared = Number(req.headers['content-length'] ?? NaN);
    const max = this.options.maxUploadBytes;
    if (declared > max) {
      throw new ApiError(413, 'payload_too_large', `The file is ${declared} bytes; the limit is ${max} bytes.`);
    }
    const target = this.pathOf(fileKey);
    const partial = `${target}.${randomUUID()}.part`;
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) {
          done(new ApiError(413, 'payload_too_large', `The file is over the limit of ${max} bytes.`));
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(req, meter, createWriteStream(partial, { mode: 0o600 }));
    } catch (e) {
      rmSync(partial, { force: true });
      if (e instanceof ApiError) throw e;
      throw new ApiError(400, 'upload_incomplete', `The upload did not complete: ${(e as Error).message}`);
    }
    if (Number.isFinite(declared) && declared !== size) {
      rmSync(partial, { force: true });
      throw new ApiError(400, 'upload_incomplete', `Content-Length said ${declared} bytes but ${size} arrived.`);
    }
    renameSync(partial, target);
    const sha256 = hash.digest('hex');
    record.uploaded = { size, sha256, at: new Date().toISOString() };
    this.store.save();
    return { size, sha256 };
  }

  /** The first bytes of an uploaded file, to tell its format. */
  head(fileKey: string, length = 64): Buffer {
    const fd = openSync(this.pathOf(fileKey), 'r');
    try {
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, 0);
      return buf.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }
}

export type AudioFormat = 'webm' | 'ogg' | 'wav' | 'mp3' | 'm4a' | 'flac';

/** Tells an audio container from its magic bytes; null when the bytes are not audio we know. */
export function sniffAudio(head: Buffer): AudioFormat | null {
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (head.subarray(0, 4).toString('latin1') === 'OggS') return 'ogg';
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WAVE') return 'wav';
  if (head.subarray(0, 4).toString('latin1') === 'fLaC') return 'flac';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'm4a';
  if (head.subarray(0, 3).toString('latin1') === 'ID3' || (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)) return 'mp3';
  return null;
}

/** Duration of a PCM WAV from its header (byte rate and data size), when the header says so. */
export function wavDurationSeconds(head: Buffer, fileSize: number): number | undefined {
  if (head.length < 44) return undefined;
  const byteRate = head.readUInt32LE(28);
  if (byteRate <= 0) return undefined;
  return Math.max(0, fileSize - 44) / byteRate;
}

/**
 * Duration of a WebM from the Duration of its Segment Info (in TimecodeScale units, 1 ms by
 * default), which comes before the first cluster; undefined for a file that has none (a
 * recording never finished) or a head that is not EBML.
 */
export function webmDurationSeconds(head: Buffer): number | undefined {
  let elements;
  try {
    elements = new Decoder().decode(new Uint8Array(head).buffer);
  } catch {
    return undefined;
  }
  let scaleNs = 1_000_000;
  for (const e of elements) {
    if (e.type === 'u' && e.name === 'TimecodeScale' && e.value > 0) scaleNs = e.value;
    if (e.type === 'f' && e.name === 'Duration' && Number.isFinite(e.value) && e.value >= 0) return (e.value * scaleNs) / 1e9;
    if (e.name === 'Cluster') break;
  }
  return undefined;
}
