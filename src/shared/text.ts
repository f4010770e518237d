/**
 * "1 subordinate", "1,234 subordinates": a count with its noun, the number written with US
 * thousands separators. Used by server messages and pages alike.
 * @param many the plural; `${one}s` when left out
 */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
