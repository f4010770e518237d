/**
 * The fields that differ between two versions of a row, as `{ field: [before, after] }` for an
 * audit entry. Dates compare by instant, numbers and text by value; `ignore` skips fields.
 */
export function changesOf<T extends Record<string, unknown>>(
  before: T,
  after: T,
  ignore: (keyof T)[] = [],
): Record<string, [unknown, unknown]> {
  const out: Record<string, [unknown, unknown]> = {};
  const plain = (v: unknown) => (v instanceof Date ? v.toISOString() : v);
  for (const key of Object.keys(after) as (keyof T & string)[]) {
    if (ignore.includes(key)) continue;
    const a = plain(before[key]);
    const b = plain(after[key]);
    if (JSON.stringify(a) !== JSON.stringify(b)) out[key] = [a ?? null, b ?? null];
  }
  return out;
}
