// The part of a document a script writes from the code (the tree of docs/ARCHITECTURE.md, the
// settings table of docs/configuration.md): the text between two marker comments, replaced whole,
// and the command line both scripts share (`--check` compares, otherwise the file is written).
import fs from 'node:fs';
import path from 'node:path';

/**
 * `markdown` with the lines between `begin` and `end` replaced by `body`.
 * @param doc the document's name for the error, e.g. 'docs/ARCHITECTURE.md'
 * @throws Error when either marker is missing
 */
export function withSection(markdown: string, begin: string, end: string, body: string, doc: string): string {
  const from = markdown.indexOf(begin);
  const to = markdown.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${doc} has no ${begin} … ${end} section`);
  return `${markdown.slice(0, from + begin.length)}\n${body}\n${markdown.slice(to)}`;
}

/**
 * Runs a document script from the command line: `--check` exits 1 with `stale` when the file
 * differs from what `rewrite` makes of it; otherwise writes it when it changed and says `written`.
 * @param file the document's absolute path
 */
export function runDocScript(
  file: string,
  rewrite: (text: string) => string,
  messages: { stale: string; written: string },
): void {
  const text = fs.readFileSync(file, 'utf8');
  const next = rewrite(text);
  if (next === text) return;
  if (process.argv.includes('--check')) {
    console.error(messages.stale);
    process.exit(1);
  }
  fs.writeFileSync(file, next);
  console.log(`${path.relative(process.cwd(), file)}: ${messages.written}`);
}
