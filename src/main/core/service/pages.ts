// Reading a paged list to its end, whatever the service's paging does: at most MAX_PAGES pages
// and MAX_ITEMS items, each item once (by id), and the first empty page ends the list even when
// it says `has_next` — a list that pages wrongly is read as far as it is sane, never for ever.
import type { ListPage } from '../../../shared/service/lists.ts';

export const PAGE_LIMIT = 50;
export const MAX_PAGES = 40;
export const MAX_ITEMS = 1_000;

export interface ReadList<T> {
  items: T[];
  /** The list went on beyond what is read (more pages or items than the bounds). */
  truncated: boolean;
}

export async function readAllPages<T extends { id: string }>(
  fetchPage: (page: number, limit: number) => Promise<ListPage<T>>,
  bounds: { maxPages?: number; maxItems?: number } = {},
): Promise<ReadList<T>> {
  const maxPages = bounds.maxPages ?? MAX_PAGES;
  const maxItems = bounds.maxItems ?? MAX_ITEMS;
  const seen = new Map<string, T>();
  for (let page = 1; page <= maxPages; page++) {
    const answer = await fetchPage(page, PAGE_LIMIT);
    if (answer.items.length === 0) return { items: [...seen.values()], truncated: false };
    for (const item of answer.items) {
      if (seen.has(item.id)) continue;
      if (seen.size >= maxItems) return { items: [...seen.values()], truncated: true };
      seen.set(item.id, item);
    }
    // Without has_next, a short page is the last one.
    const more = answer.hasNext ?? answer.items.length >= PAGE_LIMIT;
    if (!more) return { items: [...seen.values()], truncated: false };
  }
  return { items: [...seen.values()], truncated: true };
}
