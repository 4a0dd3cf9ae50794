// The scribing workflow, from `POST /recording-sessions/create` to `GET /scribe/get/{id}`, as
// published (docs/service.md), and the variants read before it was: `public_id` or `id`, `url`
// or `upload_url`, a list bare or under a key, a note as text.
import { z } from 'zod';
import {
  isRecord,
  missing,
  optionalCount,
  optionalUnixSeconds,
  parseAnswer,
  parseAt,
  publicId,
  publicIdOf,
  text,
} from './envelope.ts';

export interface RecordingSession {
  id: string;
  /** As the service wrote it; ISO 8601 from the sandbox. */
  createdAt?: string;
}

export interface Template {
  id: string;
  name: string;
  description?: string;
  /** Section headings of the note, when the service lists them. */
  sections?: string[];
}

export interface TemplatesPage {
  items: Template[];
  page?: number;
  limit?: number;
  total?: number;
  /** The published paging: whether another page follows (there is no total). */
  hasNext?: boolean;
}

export interface UploadUrl {
  uploadUrl: string;
  fileKey?: string;
  /** Unix seconds: given by the service, else read from the presigned address's own query. */
  expiresAt?: number;
  /** Headers the presigned PUT must carry, when the service names any. */
  headers?: Record<string, string>;
}

export interface ScribeRequest {
  id: string;
  status?: string;
}

export interface ScribeRecord {
  id: string;
  /** Verbatim, whatever the service calls it; see scribeStatusKind. */
  status: string;
  /** The clinical note as text (markdown-style `## ` headings when it came in sections). */
  note?: string;
  /** `categories_output` as sent: objects whose members are not published (the note module reads them). */
  categories?: Record<string, unknown>[];
  /** `rtf_output`: the whole note as an RTF document. */
  rtf?: string;
  /** `html_output` (the webhook's final event carries it instead of the RTF). */
  html?: string;
  error?: string;
}

const recordingSessionSchema = z
  .object({
    ...publicId,
    created_at: z.union([z.string(), z.number()], { error: 'must be a date (text or Unix seconds)' }).nullish(),
  })
  .transform((w, ctx): RecordingSession => {
    const recordingSessionId = publicIdOf(w, ctx);
    const createdAt =
      typeof w.created_at === 'number'
        ? new Date(w.created_at > 1e11 ? w.created_at : w.created_at * 1000).toISOString()
        : w.created_at;
    return { id: recordingSessionId, ...(createdAt ? { createdAt } : {}) };
  });

/** `POST /recording-sessions/create`. */
export function parseRecordingSession(body: unknown): RecordingSession {
  return parseAnswer('recording-session-create', recordingSessionSchema, body);
}

// Sections are an extra no part of the workflow depends on: kept when readable, else dropped.
const sections = z
  .array(
    z.union([
      z.string(),
      z.object({ title: z.string().optional(), name: z.string().optional(), heading: z.string().optional() }),
    ]),
  )
  .transform((list) =>
    list
      .map((s) => (typeof s === 'string' ? s : (s.title ?? s.name ?? s.heading ?? '')))
      .filter((s) => s.trim() !== ''),
  )
  .optional()
  .catch(undefined);

const templateSchema = z
  .object({ ...publicId, name: z.string().trim().min(1, 'must not be empty'), description: text, sections })
  .transform((w, ctx): Template => {
    return {
      id: publicIdOf(w, ctx),
      name: w.name,
      ...(w.description !== undefined ? { description: w.description } : {}),
      ...(w.sections && w.sections.length > 0 ? { sections: w.sections } : {}),
    };
  });

const templateList = z.array(templateSchema);
const LIST_KEYS = ['items', 'results', 'templates', 'data'] as const;

const pageSchema = z
  .object({
    items: templateList.optional(),
    results: templateList.optional(),
    templates: templateList.optional(),
    data: templateList.optional(),
    page: optionalCount,
    limit: optionalCount,
    total: optionalCount,
    current_page: optionalCount,
    items_per_page: optionalCount,
    has_next: z.boolean({ error: 'must be true or false' }).nullish(),
  })
  .transform((w, ctx): TemplatesPage => {
    const items = w.items ?? w.results ?? w.templates ?? w.data;
    if (items === undefined) return missing(ctx, 'items', LIST_KEYS.slice(1));
    const page = w.current_page ?? w.page;
    const limit = w.items_per_page ?? w.limit;
    return {
      items,
      ...(page !== undefined ? { page } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(w.total !== undefined ? { total: w.total } : {}),
      ...(typeof w.has_next === 'boolean' ? { hasNext: w.has_next } : {}),
    };
  });

/**
 * `GET /templates/all`: published as `{ items, has_next, current_page, items_per_page }`; also a bare array, or
 * `{ results | templates | data: [...] }` with page/limit/total, maybe inside `{ data }`.
 */
export function parseTemplatesPage(body: unknown): TemplatesPage {
  if (Array.isArray(body)) return { items: parseAt('templates', templateList, body, []) };
  return parseAnswer('templates', pageSchema, body);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * When a presigned address stops working, from its own query: AWS signature v4 (`X-Amz-Date`
 * + `X-Amz-Expires`), Google Cloud Storage v4 (`X-Goog-Date` + `X-Goog-Expires`) or the older
 * S3 form (`Expires`, Unix seconds). The published answer gives no expiry (`POST /audio/generate-upload-url`), so
 * this is how the app knows to ask for a new address before sending an hour of audio to a dead one.
 */
export function presignedExpiry(address: string): number | undefined {
  let query: URLSearchParams;
  try {
    query = new URL(address).searchParams;
  } catch {
    return undefined;
  }
  const get = (name: string) => {
    for (const [key, value] of query) if (key.toLowerCase() === name.toLowerCase()) return value;
    return null;
  };
  for (const prefix of ['X-Amz', 'X-Goog']) {
    const date = get(`${prefix}-Date`);
    const seconds = Number(get(`${prefix}-Expires`));
    const m = date ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date) : null;
    if (m && Number.isInteger(seconds) && seconds > 0) {
      const signedAt =
        Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6])) / 1000;
      if (Number.isFinite(signedAt)) return signedAt + seconds;
    }
  }
  const expires = get('Expires');
  if (expires !== null && /^\d{9,11}$/.test(expires)) return Number(expires);
  return undefined;
}

const uploadUrlSchema = z
  .object({
    upload_url: z.string().optional(),
    url: z.string().optional(),
    file_key: z.string().nullish(),
    key: z.string().nullish(),
    expires_at: optionalUnixSeconds,
    headers: z.record(z.string(), z.string()).nullish(),
  })
  .transform((w, ctx): UploadUrl => {
    const name = w.upload_url !== undefined ? 'upload_url' : 'url';
    const uploadUrl = w.upload_url ?? w.url;
    if (uploadUrl === undefined) return missing(ctx, 'upload_url', ['url']);
    // The audio is PUT to this address; anything but an absolute web address is refused here.
    if (!isHttpUrl(uploadUrl)) {
      ctx.issues.push({ code: 'custom', path: [name], message: 'must be an absolute http(s) URL', input: uploadUrl });
      return z.NEVER;
    }
    const fileKey = w.file_key ?? w.key;
    const expiresAt = w.expires_at ?? presignedExpiry(uploadUrl);
    return {
      uploadUrl,
      ...(fileKey ? { fileKey } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(w.headers ? { headers: w.headers } : {}),
    };
  });

/** `POST /audio/generate-upload-url`: published as `{ url, message }`. */
export function parseUploadUrl(body: unknown): UploadUrl {
  return parseAnswer('upload-url', uploadUrlSchema, body);
}

const scribeRequestSchema = z
  .object({ ...publicId, status: z.string().nullish() })
  .transform((w, ctx): ScribeRequest => {
    const requestId = publicIdOf(w, ctx);
    return { id: requestId, ...(w.status ? { status: w.status } : {}) };
  });

/** `POST /scribe/request`: published as `{ public_id, message }`. */
export function parseScribeRequest(body: unknown): ScribeRequest {
  return parseAnswer('scribe-request', scribeRequestSchema, body);
}

const noteSection = z.object({
  title: z.string().nullish(),
  heading: z.string().nullish(),
  body: text,
  content: text,
  text,
});

/**
 * The sandbox's note is a string. A note in sections (`{ sections: [{ title, body }] }`) is
 * written out as `## title` blocks, and a note object with one text member gives that text,
 * so the app has one form to show and copy.
 */
const noteSchema = z
  .union(
    [
      z.string(),
      z.object({ sections: z.array(noteSection) }),
      z.object({ text: z.string() }),
      z.object({ content: z.string() }),
      z.object({ markdown: z.string() }),
    ],
    { error: 'must be text or { sections: [{ title, body }] }' },
  )
  .nullish()
  .transform((note): string | undefined => {
    if (note === null || note === undefined) return undefined;
    let out: string;
    if (typeof note === 'string') out = note;
    else if ('sections' in note) {
      out = note.sections
        .map((s) => {
          const title = (s.title ?? s.heading ?? '').trim();
          const body = s.body ?? s.content ?? s.text ?? '';
          return title ? `## ${title}\n\n${body}`.trimEnd() : body;
        })
        .filter((block) => block !== '')
        .join('\n\n');
    } else out = 'text' in note ? note.text : 'content' in note ? note.content : note.markdown;
    return out.trim() === '' ? undefined : out;
  });

const scribeRecordSchema = z
  .object({
    ...publicId,
    status: z.string().trim().min(1, 'must not be empty'),
    note: noteSchema,
    note_text: z.string().nullish(),
    content: z.string().nullish(),
    error: z.union([z.string(), z.object({ message: z.string() })], { error: 'must be text or { message }' }).nullish(),
    // Members of each category are not published: kept as they came, read by the note module.
    categories_output: z.array(z.unknown()).nullish(),
    rtf_output: z.string().nullish(),
    html_output: z.string().nullish(),
  })
  .transform((w, ctx): ScribeRecord => {
    const recordId = publicIdOf(w, ctx);
    const note =
      w.note ?? (w.note_text?.trim() ? w.note_text : undefined) ?? (w.content?.trim() ? w.content : undefined);
    const error = typeof w.error === 'string' ? w.error : w.error?.message;
    const categories = (w.categories_output ?? []).filter((c): c is Record<string, unknown> => isRecord(c));
    return {
      id: recordId,
      status: w.status,
      ...(note !== undefined ? { note } : {}),
      ...(categories.length > 0 ? { categories } : {}),
      ...(w.rtf_output?.trim() ? { rtf: w.rtf_output } : {}),
      ...(w.html_output?.trim() ? { html: w.html_output } : {}),
      ...(error?.trim() ? { error } : {}),
    };
  });

/** `GET /scribe/get/{id}`: published as `{ public_id, transcript_public_id, template_public_id, status, categories_output, rtf_output }`. */
export function parseScribeRecord(body: unknown): ScribeRecord {
  return parseAnswer('scribe-get', scribeRecordSchema, body);
}

export { scribeStatusKind, type ScribeStatusKind } from './status-kind.ts';
