// A choice of note template for a recording that has none yet.
import { useEffect } from 'react';
import { useTemplateOptions } from './template-options.ts';

export function TemplateSelect({ id, value, onChange, disabled }: { id: string; value: string; onChange(templateId: string): void; disabled?: boolean }) {
  const { status, items, error, load } = useTemplateOptions();

  useEffect(() => {
    if (useTemplateOptions.getState().status === 'idle') void useTemplateOptions.getState().load();
  }, []);

  if (status === 'error') {
    return (
      <div className="template-select">
        <p className="field-error" role="alert">
          The templates could not be loaded: {error}
        </p>
        <button type="button" onClick={() => void load()}>
          Try again
        </button>
      </div>
    );
  }
  const loading = status !== 'ready';
  return (
    <div className="template-select">
      <label htmlFor={id}>Template</label>
      <select id={id} value={loading ? '' : value} disabled={disabled || loading} aria-busy={loading} onChange={(e) => onChange(e.target.value)}>
        {loading ? <option value="">Loading templates…</option> : <option value="">Choose a template…</option>}
        {items.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
    </div>
  );
}
