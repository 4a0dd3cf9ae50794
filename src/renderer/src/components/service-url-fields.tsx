// The three addresses of a service that is neither PupPilot's nor the sandbox, each labelled
// in words; the service documents' placeholder name is a small hint beside it.
import { useId } from 'react';
import type { Settings } from '../../../shared/settings.ts';
import { refusedFields, URL_FIELDS } from '../lib/service-kind.ts';

type Urls = Settings['serviceUrls'];

export function ServiceUrlFields({
  urls,
  onChange,
  refusal,
  errorId,
  readOnly = false,
}: {
  urls: Urls;
  onChange(urls: Urls): void;
  /** Main's refusal of the last save, if any: the addresses it names are marked invalid and tied to the error message. */
  refusal: string | null;
  errorId?: string;
  readOnly?: boolean;
}) {
  const ids = useId();
  const refused = refusal ? refusedFields(refusal) : new Set<string>();
  return (
    <>
      {URL_FIELDS.map(({ key, label, specName, hint }) => (
        <div key={key} className="service-url-field">
          <label htmlFor={`${ids}-${key}`}>{label}</label>
          <input
            id={`${ids}-${key}`}
            type="url"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="https://"
            value={urls[key]}
            readOnly={readOnly}
            aria-invalid={refused.has(key) ? true : undefined}
            aria-describedby={refused.has(key) && errorId ? `${ids}-${key}-hint ${errorId}` : `${ids}-${key}-hint`}
            onChange={(e) => onChange({ ...urls, [key]: e.target.value })}
          />
          <p id={`${ids}-${key}-hint`} className="field-hint">
            {hint} An https:// address (http:// only for localhost).{' '}
            <span className="spec-name">
              In the service&apos;s documents: <code>{specName}</code>
            </span>
          </p>
        </div>
      ))}
    </>
  );
}
