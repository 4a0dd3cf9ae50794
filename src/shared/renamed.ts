// Files written by an earlier version under names since changed (a saved setting, a job file,
// what this computer recorded): read under today's names, so nothing saved is lost to a rename.
// The next write saves today's names only.

/** Old name -> name now. */
export type Renames = Readonly<Record<string, string>>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * An object's members under today's names; a member saved under both names keeps today's.
 * Anything but a plain object is given back as it is, for its schema to refuse.
 */
export function withNamesNow(saved: unknown, renamed: Renames): unknown {
  if (!isObject(saved)) return saved;
  const out = { ...saved };
  for (const [old, now] of Object.entries(renamed)) {
    if (!(old in out)) continue;
    if (!(now in out)) out[now] = out[old];
    delete out[old];
  }
  return out;
}

/** A value under today's name, where it is one of the names that changed. */
export function valueNow<T>(value: T, renamed: Renames): T | string {
  return typeof value === 'string' && Object.hasOwn(renamed, value) ? (renamed[value] as string) : value;
}
