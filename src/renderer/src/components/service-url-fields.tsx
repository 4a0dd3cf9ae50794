// The three addresses of a service that is neither PupPilot's nor the sandbox, each labelled
// in words; the service documents' placeholder name is a small hint beside it. With
// `reasonsBeside`, what main said of each refused address stands under that address and the
// first of them takes the focus, so the vet reads the reason where the mistake is.
import { useId, useLayoutEffect, useRef } from 'react';
import type { Settings } from '../../../shared/settings.ts';
import { refusalsByField, refusedFields, URL_FIELDS } from '../lib/service-kind.ts';

type Urls = Settings['serviceUrls'];

export function ServiceUrlFields({
  urls,
  onChange,
  refusal,
  errorId,
  readOnly = false,
  reasonsBeside = false,
}: {
  urls: Urls;
  onChange(urls: Urls): void;
  /** Main's refusal of the last save, if any: the addresses it names are marked invalid and tied to the error message. */
  refusal: string | null;
  errorId?: string;
  readOnly?: boolean;
  /** Each refused address's reason under it, and the focus on the first; otherwise they point to `errorId`. */
  reasonsBeside?: boolean;
}) {
  const ids = useId();
  const refused = refusal ? refusedFields(refusal) : new Set<string>();
  const reasons = reasonsBeside && refusal ? refusalsByField(refusal) : new Map<string, string>();
  const inputs = useRef(new Map<string, HTMLInputElement>());

  // A new refusal puts the focus on the first address it names, where the vet corrects it: in the
  // same commit that marks it, so the field is never shown marked with the focus elsewhere.
  useLayoutEffect(() => {
    if (!reasonsBeside || !refusal) return;
    const first = URL_FIELDS.find(({ key }) => refusedFields(refusal).has(key));
    if (first) inputs.current.get(first.key)?.focus();
  }, [refusal, reasonsBeside]);

  const describedBy = (key: string) => {
    if (!refused.has(key)) return `${ids}-${key}-hint`;
    if (reasons.has(key)) return `${ids}-${key}-reason ${ids}-${key}-hint`;
    return errorId ? `${ids}-${key}-hint ${errorId}` : `${ids}-${key}-hint`;
  };
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
            aria-describedby={describedBy(key)}
            ref={(input) => {
              if (input) inputs.current.set(key, input);
              else inputs.current.delete(key);
            }}
            onChange={(e) => onChange({ ...urls, [key]: e.target.value })}
          />
          {reasons.has(key) && (
            <p id={`${ids}-${key}-reason`} className="field-error">
              {reasons.get(key)}
            </p>
          )}
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
