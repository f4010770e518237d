/** PostgreSQL error codes the services answer on their own (the rest are unexpected). */

/** true for PostgreSQL's unique violation (23505), also when wrapped by Drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (e.code === '23505') return true;
  }
  return false;
}
