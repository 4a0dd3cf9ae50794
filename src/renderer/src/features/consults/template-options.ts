// The service's note templates, loaded once for every row that needs a choice of template.
import { create } from 'zustand';
import type { Template } from '../../../../shared/service/index.ts';
import { api } from '../../api.ts';

const MAX_PAGES = 20;

interface TemplateOptionsState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  items: Template[];
  error: string | null;
  load(): Promise<void>;
}

export const useTemplateOptions = create<TemplateOptionsState>((set, get) => ({
  status: 'idle',
  items: [],
  error: null,
  async load() {
    if (get().status === 'loading') return;
    set({ status: 'loading', error: null });
    try {
      const items: Template[] = [];
      for (let page = 1; page <= MAX_PAGES; page++) {
        const answer = await api.templates.list({ page, limit: 100 });
        items.push(...answer.items);
        if (!answer.hasMore) break;
      }
      set({ status: 'ready', items });
    } catch (e) {
      set({ status: 'error', error: (e as Error).message });
    }
  },
}));
