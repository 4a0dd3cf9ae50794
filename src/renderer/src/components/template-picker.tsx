// The note template a recording is scribed with: a search box over a plain <select>, which
// every screen reader and keyboard already knows. The last template used is chosen for the vet
// unless they have already chosen.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Template } from '../../../shared/service/index.ts';
import { useSettings } from '../stores/settings.ts';
import { useTemplates } from '../stores/templates.ts';
import './template-picker.css';

export interface TemplatePickerProps {
  value: string | null;
  onChange(templateId: string | null): void;
  disabled?: boolean;
  /** Choose the last template used when nothing is chosen yet (default true). */
  preselectLast?: boolean;
  /** Shown under the field, e.g. "You can also choose after recording." */
  hint?: string;
  /** Templates not offered (those a consult's documents are already written with). */
  exclude?: readonly string[];
}

export function matchesTemplate(t: Template, query: string): boolean {
  const q = query.trim().toLowerCase();
  return q === '' || t.name.toLowerCase().includes(q) || (t.description ?? '').toLowerCase().includes(q);
}

export function TemplatePicker({
  value,
  onChange,
  disabled = false,
  preselectLast = true,
  hint,
  exclude,
}: TemplatePickerProps) {
  const { items: all, status, error, hasMore, total } = useTemplates();
  const items = useMemo(() => (exclude?.length ? all.filter((t) => !exclude.includes(t.id)) : all), [all, exclude]);
  const lastTemplateId = useSettings((s) => s.settings?.lastTemplateId ?? null);
  const [query, setQuery] = useState('');
  const touched = useRef(false);
  const searchId = useId();
  const selectId = useId();
  const hintId = useId();

  // Read again when the vet in front changes (the store forgets the list: it is each vet's).
  useEffect(() => {
    if (status === 'idle') void useTemplates.getState().load();
  }, [status]);

  useEffect(() => {
    if (!preselectLast || touched.current || value !== null || !lastTemplateId) return;
    if (items.some((t) => t.id === lastTemplateId)) {
      touched.current = true;
      onChange(lastTemplateId);
    }
  }, [preselectLast, value, lastTemplateId, items, onChange]);

  // A search looks through every template, not only the pages loaded so far; so does the
  // search for the template used last. The next page is asked for until it is found or there
  // is none left (an error stops it; Try again goes on).
  const wantsAll =
    query.trim() !== '' ||
    (preselectLast && value === null && !!lastTemplateId && !items.some((t) => t.id === lastTemplateId));
  useEffect(() => {
    if (wantsAll && hasMore && status === 'ready') void useTemplates.getState().loadMore();
  }, [wantsAll, hasMore, status]);

  // The chosen template stays in the list whatever the search, so the field never shows a
  // choice that is not among its options.
  const shown = useMemo(() => items.filter((t) => t.id === value || matchesTemplate(t, query)), [items, value, query]);
  const selected = items.find((t) => t.id === value) ?? null;
  const unknownValue = value !== null && !selected;
  const empty = status === 'ready' && items.length === 0;
  const stillLoading = status === 'idle' || status === 'loading' || (hasMore && status !== 'error');
  // Whatever the chosen one: "no match" only when no template matches the words at all.
  const matches = useMemo(
    () => (query.trim() === '' ? [] : items.filter((t) => matchesTemplate(t, query))),
    [items, query],
  );
  const noMatch = query.trim() !== '' && matches.length === 0 && !stillLoading;

  // A search that leaves exactly one template (every page looked through) chooses it.
  const single = query.trim() !== '' && matches.length === 1 && !stillLoading ? (matches[0]?.id ?? null) : null;
  useEffect(() => {
    if (single !== null && single !== value && !disabled) {
      touched.current = true;
      onChange(single);
    }
  }, [single, value, disabled, onChange]);

  const choose = (id: string) => {
    touched.current = true;
    onChange(id === '' ? null : id);
  };

  return (
    <div className="template-picker">
      <label htmlFor={searchId}>Search templates</label>
      <input
        id={searchId}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        disabled={disabled || items.length === 0}
        autoComplete="off"
      />
      <label htmlFor={selectId}>Template</label>
      <select
        id={selectId}
        value={value ?? ''}
        onChange={(e) => choose(e.target.value)}
        disabled={disabled || empty}
        aria-describedby={hintId}
      >
        <option value="">
          {items.length === 0 && status === 'loading' ? 'Loading templates…' : 'No template chosen yet'}
        </option>
        {/* Never an id: the chosen template's name once the list has it. */}
        {unknownValue && (
          <option value={value}>
            {stillLoading ? 'Loading templates…' : 'A template the service no longer offers'}
          </option>
        )}
        {shown.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <div id={hintId}>
        {selected?.description && <p className="field-hint">{selected.description}</p>}
        {noMatch && <p className="field-hint">No template matches “{query.trim()}”.</p>}
        {hint && <p className="field-hint">{hint}</p>}
      </div>
      {status === 'loading' && (
        <p className="field-hint" role="status">
          Loading templates…
        </p>
      )}
      {empty && <p className="notice notice-warning">No templates from the service</p>}
      {status === 'error' && (
        <div className="notice notice-error template-picker-error" role="alert">
          <span>Could not load the templates: {error}</span>
          <button type="button" onClick={() => void useTemplates.getState().retry()}>
            Try again
          </button>
        </div>
      )}
      {hasMore && status !== 'loading' && (
        <div className="row template-picker-more">
          <button type="button" onClick={() => void useTemplates.getState().loadMore()} disabled={disabled}>
            Load more templates
          </button>
          {total !== null && (
            <span className="muted">
              {all.length} of {total} shown
            </span>
          )}
        </div>
      )}
    </div>
  );
}
