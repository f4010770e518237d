// `npm run docs:tree`: redraws the folder tree of docs/ARCHITECTURE.md ("The tree") from src/, so the
// picture a newcomer reads is the code as it is. `--check` only compares, exiting 1 when the document
// is out of date (tests/integration/architecture-tree.test.ts runs the same comparison).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDocScript, withSection } from './doc-section.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const ARCHITECTURE_MD = path.join(ROOT, 'docs', 'ARCHITECTURE.md');
const BEGIN = '<!-- tree:begin (npm run docs:tree draws what follows from src/) -->';
const END = '<!-- tree:end -->';
/** Files a reader does not look for in the picture: tests next to the code, styles, assets. */
const LEFT_OUT = /\.test\.tsx?$|\.module\.css$|\.d\.ts$/;
const WIDTH = 100;

/**
 * The tree of src/ as text: one line per folder, indented by depth, followed by its files (tests,
 * CSS modules and declaration files left out) joined by " · " and wrapped at 100 characters.
 * Folders come in name order, their files too.
 * @param dir the folder to draw, relative to the repository's root (default 'src')
 * @returns the lines, without the code fence
 */
export function drawTree(dir = 'src'): string[] {
  const lines: string[] = [];
  const walk = (rel: string, depth: number): void => {
    const entries = fs.readdirSync(path.join(ROOT, rel), { withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile() && !LEFT_OUT.test(e.name))
      .map((e) => e.name)
      .sort();
    const folders = entries
      .filter((e) => e.isDirectory() && e.name !== 'migrations' && e.name !== 'public')
      .map((e) => e.name)
      .sort();
    const indent = '  '.repeat(depth);
    const head = `${indent}${path.basename(rel)}/`;
    lines.push(...wrap(head, files, `${indent}  `));
    for (const folder of folders) walk(path.join(rel, folder), depth + 1);
  };
  walk(dir, 0);
  return lines;
}

/** `head` then the names after it, on as many lines as 100 characters allow, later lines indented. */
function wrap(head: string, names: string[], indent: string): string[] {
  if (names.length === 0) return [head];
  const out: string[] = [];
  let line = `${head.padEnd(Math.max(head.length + 1, 28))}`;
  let first = true;
  for (const name of names) {
    const piece = first ? name : ` · ${name}`;
    if (!first && line.length + piece.length > WIDTH) {
      out.push(`${line} ·`);
      line = `${indent.padEnd(28)}${name}`;
    } else {
      line += piece;
    }
    first = false;
  }
  out.push(line);
  return out;
}

/**
 * docs/ARCHITECTURE.md with its tree section redrawn.
 * @param text the document as it is
 * @returns the document with the lines between the tree markers replaced
 * @throws Error when the markers are missing
 */
export function withTree(text: string): string {
  return withSection(text, BEGIN, END, ['```', ...drawTree('src'), '```'].join('\n'), 'docs/ARCHITECTURE.md');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runDocScript(ARCHITECTURE_MD, withTree, {
    stale: 'docs/ARCHITECTURE.md "The tree" is out of date: run npm run docs:tree',
    written: 'the tree redrawn',
  });
}
