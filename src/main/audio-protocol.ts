// The window plays a recording from vetscribe-audio://recording/<id>, never from a file://
// path: the page needs no access to the disk, and an address names a recording the app knows,
// not a place on disk. Electron hands the protocol's requests to answerAudioRequest.
import { Readable } from 'node:stream';
import { decodeSegment } from '../shared/request-target.ts';
import { audioAnswer } from './core/recordings/index.ts';
import { AUDIO_SCHEME } from './security.ts';

const AUDIO_HOST = 'recording';

/** The address the window gets for a recording's audio. */
export function audioUrl(id: string): string {
  return `${AUDIO_SCHEME}://${AUDIO_HOST}/${encodeURIComponent(id)}`;
}

/**
 * The recording id an audio address names, or null when the address is not one audioUrl
 * makes: another scheme or host, more than one path segment, bad percent-encoding, or an id
 * that could name a path (separators, dot segments, drive letters, control characters).
 * The id is still only a claim: the caller serves it only if the app knows that recording.
 */
export function recordingIdFromAudioUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== `${AUDIO_SCHEME}:` || url.host !== AUDIO_HOST || url.username || url.password) return null;
  const segment = url.pathname.slice(1);
  if (!url.pathname.startsWith('/') || segment === '' || segment.includes('/')) return null;
  const id = decodeSegment(segment);
  if (id === null) return null;
  // eslint-disable-next-line no-control-regex
  if (id.length > 200 || id === '.' || id === '..' || /[/\\:\u0000-\u001f\u007f]/.test(id)) return null;
  return id;
}

export interface AudioLibrary {
  /** The file and media type of a recording the vet signed in may play (AppCore.audioFor), else null. */
  audio(id: string): { path: string; mimeType: string } | null;
}

/** The answer to one request of the audio protocol: the file with Range support, or 404. */
export async function answerAudioRequest(url: string, range: string | null, library: AudioLibrary): Promise<Response> {
  const id = recordingIdFromAudioUrl(url);
  const audio = id === null ? null : library.audio(id);
  if (audio === null) return new Response('No such recording', { status: 404 });
  const answer = await audioAnswer(audio.path, audio.mimeType, range);
  const body = answer.body ? (Readable.toWeb(answer.body) as ReadableStream) : null;
  return new Response(body, { status: answer.status, headers: answer.headers });
}
