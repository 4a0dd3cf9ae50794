// `GET /scribe/all` read for one thing only: the status of scribe jobs the app is waiting for.
// Published as `{ items, has_next, current_page, items_per_page }`, newest first; read
// tolerantly (a bare array, or `{ results | data }`), and an item without an id or a status is
// left out rather than failing the page: the job it was stays asked for one by one.
import { z } from 'zod';

export interface ScribeStatusItem {
  id: string;
  status: string;
  /** When the job last changed (ms since the epoch), when the service says. */
  updatedAt: number | null;
}

export interface ScribeStatusPage {
  items: ScribeStatusItem[];
  /** null: the service did not say whether more pages follow. */
  hasNext: boolean | null;
}

const itemSchema = z.looseObject({
  public_id: z.string().min(1).optional(),
  id: z.string().min(1).optional(),
  status: z.string().min(1),
  updated_at: z.string().nullish(),
});

const pageSchema = z.looseObject({
  items: z.array(z.unknown()).optional(),
  results: z.array(z.unknown()).optional(),
  data: z.array(z.unknown()).optional(),
  has_next: z.boolean().nullish(),
});

/** Throws when the answer is not a list at all. */
export function parseScribeStatusPage(body: unknown): ScribeStatusPage {
  let raw: unknown[];
  let hasNext: boolean | null = null;
  if (Array.isArray(body)) raw = body;
  else {
    const page = pageSchema.safeParse(body);
    const list = page.success ? (page.data.items ?? page.data.results ?? page.data.data) : undefined;
    if (!page.success || list === undefined) throw new Error('The list of scribe jobs is not a list.');
    raw = list;
    hasNext = page.data.has_next ?? null;
  }
  const items: ScribeStatusItem[] = [];
  for (const entry of raw) {
    const item = itemSchema.safeParse(entry);
    const id = item.success ? (item.data.public_id ?? item.data.id) : undefined;
    if (!item.success || id === undefined) continue;
    const at = item.data.updated_at ? Date.parse(item.data.updated_at) : Number.NaN;
    items.push({ id, status: item.data.status, updatedAt: Number.isFinite(at) ? at : null });
  }
  return { items, hasNext };
}
