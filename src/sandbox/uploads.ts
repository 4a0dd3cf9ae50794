// Presigned upload addresses (`POST /audio/generate-upload-url`) and the PUT that uses them, as S3
// does them: the address carries X-Amz-Date, X-Amz-Expires and an X-Amz-Signature (an HMAC of the
// method, the path and the rest of the query); only the host is signed, so a PUT without
// Content-Type (as `curl -T` sends it) is taken. An address naming another access key (signed under
// the secret of an earlier run) is InvalidAccessKeyId, as S3 answers it. Errors answer S3's XML.
// The body is streamed to disk, never held in memory, and refused past the size limit.
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createWriteStream, mkdirSync, openSync, readSync, closeSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import { Decoder } from 'ts-ebml';
import { StorageError } from './http.ts';
import type { SandboxKeys } from './keys.ts';
import type { SandboxOptions } from './options.ts';
import type { StateStore, UploadRecord } from './state.ts';

/** Read on each use: a test may change the sandbox's options while it runs. */
export type UploadOptions = Pick<SandboxOptions, 'uploadTtlSeconds' | 'maxUploadBytes'>;

const SIGNED = ['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders'] as const;

/** `20261125T093000Z` for a time in ms. */
export function amzDate(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function parseAmzDate(value: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) : NaN;
}

export class Uploads {
  private readonly secret: Buffer;
  private readonly keyId: string;
  private readonly store: StateStore;
  private readonly options: UploadOptions;
  private readonly dir: string;
  constructor(
    store: StateStore,
    options: UploadOptions,
    dir: string,
    keys: Pick<SandboxKeys, 'upload' | 'uploadKeyId'>,
  ) {
    this.store = store;
    this.options = options;
    this.dir = dir;
    this.secret = keys.upload;
    this.keyId = keys.uploadKeyId;
    mkdirSync(dir, { recursive: true });
  }

  private sign(path: string, query: URLSearchParams): string {
    const canonical = SIGNED.map((name) => `${name}=${query.get(name) ?? ''}`).join('&');
    return createHmac('sha256', this.secret).update(`PUT\n${path}\n${canonical}\nhost`).digest('hex');
  }

  /** `POST /audio/generate-upload-url`: a new object for the session and its presigned address. */
  create(origin: string, recordingSessionId: string, autoScribeTemplateId: string | null): string {
    const fileKey = `recordings/${recordingSessionId}/${randomUUID()}`;
    const record: UploadRecord = {
      file_key: fileKey,
      recording_session_public_id: recordingSessionId,
      created_at: new Date().toISOString(),
      content_type: null,
      auto_scribe_template_public_id: autoScribeTemplateId,
      uploaded: null,
    };
    this.store.state.uploads[fileKey] = record;
    this.store.save();
    const path = `/storage/${encodeURIComponent(fileKey)}`;
    const now = Date.now();
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': `${this.keyId}/${amzDate(now).slice(0, 8)}/local/s3/aws4_request`,
      'X-Amz-Date': amzDate(now),
      'X-Amz-Expires': String(this.options.uploadTtlSeconds),
      'X-Amz-SignedHeaders': 'host',
    });
    query.set('X-Amz-Signature', this.sign(path, query));
    return `${origin}${path}?${query}`;
  }

  pathOf(fileKey: string): string {
    return join(this.dir, createHash('sha256').update(fileKey).digest('hex'));
  }

  /** The `PUT` to a presigned address: checks the address, then streams the body to disk. */
  async put(
    req: IncomingMessage,
    fileKey: string,
    query: URLSearchParams,
  ): Promise<{ size: number; sha256: string; record: UploadRecord }> {
    const path = `/storage/${encodeURIComponent(fileKey)}`;
    if ((query.get('X-Amz-Credential') ?? '').split('/')[0] !== this.keyId) {
      throw new StorageError(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
        fileKey,
      );
    }
    const signature = query.get('X-Amz-Signature') ?? '';
    // Exactly 64 hex digits before comparing: Buffer.from(hex) stops at the first other
    // character, so a signature with anything appended would otherwise compare equal.
    const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, 'hex') : null;
    const expected = Buffer.from(this.sign(path, query), 'hex');
    if (!given || !timingSafeEqual(given, expected)) {
      throw new StorageError(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
        fileKey,
      );
    }
    const signedAt = parseAmzDate(query.get('X-Amz-Date') ?? '');
    const expires = Number(query.get('X-Amz-Expires'));
    if (!Number.isFinite(signedAt) || !Number.isInteger(expires) || Date.now() > signedAt + expires * 1000) {
      throw new StorageError(403, 'AccessDenied', 'Request has expired', fileKey);
    }
    const record = this.store.state.uploads[fileKey];
    if (!record) throw new StorageError(404, 'NoSuchUpload', 'The specified upload does not exist.', fileKey);
    const sentType = req.headers['content-type'] ?? null;
    const declared = Number(req.headers['content-length'] ?? NaN);
    const max = this.options.maxUploadBytes;
    if (declared > max) {
      throw new StorageError(
        400,
        'EntityTooLarge',
        `Your proposed upload exceeds the maximum allowed size (${max} bytes).`,
        fileKey,
      );
    }
    const target = this.pathOf(fileKey);
    const partial = `${target}.${randomUUID()}.part`;
    const hash = createHash('sha256');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (size > max) {
          done(
            new StorageError(
              400,
              'EntityTooLarge',
              `Your proposed upload exceeds the maximum allowed size (${max} bytes).`,
              fileKey,
            ),
          );
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
      if (e instanceof StorageError) throw e;
      throw new StorageError(400, 'IncompleteBody', `The upload did not complete: ${(e as Error).message}`, fileKey);
    }
    if (Number.isFinite(declared) && declared !== size) {
      rmSync(partial, { force: true });
      throw new StorageError(
        400,
        'IncompleteBody',
        `You did not provide the number of bytes specified by the Content-Length HTTP header (${declared} said, ${size} sent).`,
        fileKey,
      );
    }
    renameSync(partial, target);
    const sha256 = hash.digest('hex');
    record.uploaded = { size, sha256, at: new Date().toISOString() };
    record.content_type = sentType;
    const recordingSession = this.store.state.recording_sessions[record.recording_session_public_id];
    if (recordingSession) {
      recordingSession.last_upload_key = fileKey;
      recordingSession.updated_at = record.uploaded.at;
    }
    this.store.save();
    return { size, sha256, record };
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
  if (head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WAVE')
    return 'wav';
  if (head.subarray(0, 4).toString('latin1') === 'fLaC') return 'flac';
  if (head.subarray(4, 8).toString('latin1') === 'ftyp') return 'm4a';
  if (
    head.subarray(0, 3).toString('latin1') === 'ID3' ||
    (head.length >= 2 && head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0)
  )
    return 'mp3';
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
    if (e.type === 'f' && e.name === 'Duration' && Number.isFinite(e.value) && e.value >= 0)
      return (e.value * scaleNs) / 1e9;
    if (e.name === 'Cluster') break;
  }
  return undefined;
}
