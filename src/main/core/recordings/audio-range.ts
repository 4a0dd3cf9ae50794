// A recording's audio as an HTTP-style answer with Range support (players seek with ranges),
// streamed from disk. Used by the Electron audio protocol and by the browser test host.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';

export interface AudioAnswer {
  status: 200 | 206 | 404 | 416;
  headers: Record<string, string>;
  body: Readable | null;
}

export async function audioAnswer(
  path: string,
  contentType: string,
  rangeHeader: string | null | undefined,
): Promise<AudioAnswer> {
  let size: number;
  try {
    size = (await stat(path)).size;
  } catch {
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: null };
  }
  const base = {
    'content-type': contentType.split(';')[0] ?? 'audio/webm',
    'accept-ranges': 'bytes',
    'cache-control': 'no-store',
  };
  const m = rangeHeader ? /^bytes=(\d*)-(\d*)$/.exec(rangeHeader.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) {
    return { status: 200, headers: { ...base, 'content-length': String(size) }, body: createReadStream(path) };
  }
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start > end || start >= size) {
    return { status: 416, headers: { ...base, 'content-range': `bytes */${size}` }, body: null };
  }
  return {
    status: 206,
    headers: { ...base, 'content-length': String(end - start + 1), 'content-range': `bytes ${start}-${end}/${size}` },
    body: createReadStream(path, { start, end }),
  };
}
