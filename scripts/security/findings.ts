import fs from 'node:fs';

/** One thing a scanner reported, under a key that stays the same from run to run. */
export interface Finding {
  tool: 'sqlmap' | 'wapiti' | 'server';
  /**
   * `sqlmap <METHOD> <path> <place> <parameter>` (or `… 5xx`, `… not-reached`), or
   * `wapiti <category> <METHOD> <path> [<parameter>] <info>`; no session values, ports or ids.
   */
  key: string;
  detail: string;
}

/** A finding explained in docs/security.md, matched by its exact key. */
export interface AcceptedFinding {
  key: string;
  reason: string;
}

/**
 * Reads the allowlist and checks that docs/security.md explains every entry (its key appears there
 * verbatim), so the two cannot drift apart.
 * @throws when the file is not a list of { key, reason } or an entry is missing from the document
 */
export function loadAccepted(allowlistFile: string, docFile: string): AcceptedFinding[] {
  const list = JSON.parse(fs.readFileSync(allowlistFile, 'utf8')) as unknown;
  if (
    !Array.isArray(list) ||
    !list.every((e) => typeof e?.key === 'string' && typeof e?.reason === 'string' && e.reason.length > 0)
  ) {
    throw new Error(`${allowlistFile} must be a JSON list of { "key": "...", "reason": "..." }`);
  }
  const doc = fs.existsSync(docFile) ? fs.readFileSync(docFile, 'utf8') : '';
  const undocumented = (list as AcceptedFinding[]).filter((e) => !doc.includes(e.key));
  if (undocumented.length) {
    throw new Error(
      `Accepted findings not explained in ${docFile}:\n${undocumented.map((e) => `  ${e.key}`).join('\n')}`,
    );
  }
  return list as AcceptedFinding[];
}

export interface Verdict {
  accepted: (Finding & { reason: string })[];
  unexplained: Finding[];
  /** Allowlist entries no scanner reported this time (candidates for removal). */
  unused: AcceptedFinding[];
}

/** Splits findings into those the allowlist explains and the rest; duplicates (same key) count once. */
export function judge(findings: Finding[], accepted: AcceptedFinding[]): Verdict {
  const byKey = new Map(accepted.map((a) => [a.key, a]));
  const unique = [...new Map(findings.map((f) => [f.key, f])).values()];
  return {
    accepted: unique.filter((f) => byKey.has(f.key)).map((f) => ({ ...f, reason: byKey.get(f.key)!.reason })),
    unexplained: unique.filter((f) => !byKey.has(f.key)),
    unused: accepted.filter((a) => !unique.some((f) => f.key === a.key)),
  };
}
