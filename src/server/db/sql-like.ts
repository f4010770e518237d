/**
 * `s` with LIKE's wildcards (`%`, `_`) and its escape character (backslash, PostgreSQL's default)
 * escaped, so a search for "50%_off" matches those characters literally.
 */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
