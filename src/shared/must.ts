/**
 * The value the caller knows is there: a row just inserted or locked, a key just checked, a setting the
 * configuration check requires. A missing one is a programming error, so it fails loudly and by name
 * instead of as a TypeError further on (docs/decisions/013-lint-and-format.md, non-null assertions).
 * @param value the value, null or undefined only if the caller's reasoning is wrong
 * @param what what was expected, for the error, e.g. 'the inserted invoice'
 * @returns value, typed without null and undefined
 * @throws Error "Expected <what>, but there is none." when value is null or undefined
 */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`Expected ${what}, but there is none.`);
  return value;
}
