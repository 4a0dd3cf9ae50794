// One card per diagnosis or treatment plan, every field under its readable heading, in the
// order the shared field list gives. Fields the service left out are not shown: a half-filled
// answer is still worth reading.
import { useId, type ReactNode } from 'react';
import './agents.css';

export interface CardField<K extends string> {
  key: K;
  heading: string;
  /** Set apart on the card: what the vet reads first (a drug's dosing by species). */
  prominent?: boolean;
}

export type CardItem<K extends string> = { label: string } & Partial<Record<K, string>>;

/** The card's title: its label, else its first field, else "<fallback> <n>". */
export function cardTitle<K extends string>(
  item: CardItem<K>,
  fields: readonly CardField<K>[],
  index: number,
  fallback: string,
): string {
  if (item.label.trim() !== '') return item.label;
  const first = fields.map((f) => item[f.key]).find((v) => v !== undefined && v.trim() !== '');
  return first ?? `${fallback} ${index + 1}`;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The fields of an item that have a value, in the field list's order; one that only repeats the card's title is left out. */
export function shownFields<K extends string>(
  item: CardItem<K>,
  fields: readonly CardField<K>[],
  title?: string,
): { key: K; heading: string; value: string; prominent: boolean }[] {
  return fields.flatMap((f) => {
    const value = item[f.key];
    if (value === undefined || (title !== undefined && same(value, title))) return [];
    return [{ key: f.key, heading: f.heading, value, prominent: f.prominent ?? false }];
  });
}

/** How a field's value is shown (the treatment panel adds its dose totals); plain text by default. */
export type RenderValue<K extends string> = (key: K, value: string) => ReactNode;

function ResultCard<K extends string>({
  item,
  fields,
  title,
  renderValue,
}: {
  item: CardItem<K>;
  fields: readonly CardField<K>[];
  title: string;
  renderValue?: RenderValue<K> | undefined;
}) {
  const titleId = useId();
  return (
    <article className="result-card" aria-labelledby={titleId}>
      <h3 id={titleId}>{title}</h3>
      <dl>
        {shownFields(item, fields, title).map((f) => (
          <div key={f.key} className={f.prominent ? 'result-field result-field-prominent' : 'result-field'}>
            <dt>{f.heading}</dt>
            <dd>{renderValue ? renderValue(f.key, f.value) : f.value}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

export function ResultCards<K extends string>({
  items,
  fields,
  fallbackTitle = 'Item',
  renderValue,
}: {
  items: readonly CardItem<K>[];
  fields: readonly CardField<K>[];
  fallbackTitle?: string;
  renderValue?: RenderValue<K> | undefined;
}) {
  return (
    <ol className="result-cards">
      {items.map((item, i) => (
        <li key={`${i}:${item.label}`}>
          <ResultCard
            item={item}
            fields={fields}
            title={cardTitle(item, fields, i, fallbackTitle)}
            renderValue={renderValue}
          />
        </li>
      ))}
    </ol>
  );
}
