// The organization's lists, GET /scribe/all and GET /recording-sessions/all, read tolerantly: a
// page may be bare or inside `{ data }`, its items under `items` (as published), `results` or
// `data`; an item without an id is left out rather than failing the whole page. A scribe's
// recording session is not in the published items, so it is read only where an answer names it
// (`recording_session_public_id`, as the webhook payload does), never guessed.
import { isRecord } from './envelope.ts';
import { ServiceResponseError, type Operation } from './errors.ts';

export interface ListPage<T> {
  items: T[];
  /** Whether the service says another page follows; undefined when it does not say. */
  hasNext: boolean | undefined;
}

export interface ScribeListItem {
  id: string;
  updatedAt: string | null;
  templateId: string | null;
  status: string | null;
  /** Only when the answer names it. */
  recordingSessionId: string | null;
}

export interface RecordingSessionListItem {
  id: string;
  updatedAt: string | null;
  patientName: string | null;
  description: string | null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function date(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value))
    return new Date(value > 1e11 ? value : value * 1000).toISOString();
  const t = text(value);
  return t !== null && !Number.isNaN(Date.parse(t)) ? t : null;
}

function idOf(item: Record<string, unknown>): string | null {
  return text(item['public_id']) ?? text(item['id']);
}

/** The recording session a scribe answer names, if it names one. */
export function scribeRecordingSessionId(body: unknown): string | null {
  const record = isRecord(body) && isRecord(body['data']) ? body['data'] : body;
  if (!isRecord(record)) return null;
  return text(record['recording_session_public_id']) ?? text(record['recording_session_id']);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** The items of a page: bare, under `items`, `results` or `data`, maybe inside `{ data }`; a named field when missing. */
function itemsOf(operation: Operation, body: unknown): { raw: unknown[]; root: unknown } {
  if (Array.isArray(body)) return { raw: body, root: body };
  if (body === undefined) throw new ServiceResponseError(operation, '', 'is missing');
  if (!isRecord(body)) throw new ServiceResponseError(operation, '', `must be an object, got ${kindOf(body)}`);
  const direct = ['items', 'results'].map((k) => body[k]).find(Array.isArray);
  if (direct) return { raw: direct, root: body };
  if (!('data' in body)) throw new ServiceResponseError(operation, 'items', 'is missing');
  const data = body['data'];
  if (Array.isArray(data)) return { raw: data, root: body };
  if (!isRecord(data)) throw new ServiceResponseError(operation, 'data', `must be an array, got ${kindOf(data)}`);
  const inner = ['items', 'results'].map((k) => data[k]).find(Array.isArray);
  if (!inner) throw new ServiceResponseError(operation, 'data.items', 'is missing');
  return { raw: inner, root: data };
}

function listPage<T>(operation: Operation, body: unknown, item: (x: Record<string, unknown>) => T | null): ListPage<T> {
  const { raw, root } = itemsOf(operation, body);
  const hasNext = isRecord(root) && typeof root['has_next'] === 'boolean' ? root['has_next'] : undefined;
  const items: T[] = [];
  for (const x of raw) {
    const parsed = isRecord(x) ? item(x) : null;
    if (parsed !== null) items.push(parsed);
  }
  return { items, hasNext };
}

/** One page of `GET /scribe/all`. */
export function parseScribeListPage(body: unknown): ListPage<ScribeListItem> {
  return listPage('scribe-all', body, (x) => {
    const id = idOf(x);
    if (id === null) return null;
    return {
      id,
      updatedAt: date(x['updated_at']) ?? date(x['created_at']),
      templateId: text(x['template_public_id']),
      status: text(x['status']),
      recordingSessionId: scribeRecordingSessionId(x),
    };
  });
}

/** One page of `GET /recording-sessions/all`. */
export function parseRecordingSessionListPage(body: unknown): ListPage<RecordingSessionListItem> {
  return listPage('recording-sessions-all', body, (x) => {
    const id = idOf(x);
    if (id === null) return null;
    return {
      id,
      updatedAt: date(x['updated_at']) ?? date(x['created_at']) ?? date(x['session_date']),
      patientName: text(x['patient_name']),
      description: text(x['description']),
    };
  });
}
