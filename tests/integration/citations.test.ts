import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments and documents cite the product's rules in docs/requirements/ (how a citation is written:
 * docs/requirements/README.md "How code cites these files"). A reader has only the repository, so a
 * citation must lead to a file that exists and, when it names a tool, a section or a quoted heading
 * or phrase, to that place in the file; and no comment may send the reader to a document or a
 * tracker entry outside the repository.
 */

const root = path.resolve(import.meta.dirname, '../..');
const tracked = execFileSync('git', ['ls-files', 'src', 'tests', 'bench', 'scripts', 'docs', 'README.md', '.ci'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\n')
  .filter(
    (f) =>
      /\.(ts|tsx|mjs|js|md|sh|css)$|^\.ci\//.test(f) &&
      !f.startsWith('docs/requirements/') &&
      f !== 'tests/integration/citations.test.ts',
  );
const texts = tracked.map((file) => ({ file, text: readFileSync(path.join(root, file), 'utf8') }));

/** Text with line breaks and comment leaders folded, so that a citation wrapped over two comment lines reads as one. */
const folded = (text: string) => text.replace(/\n\s*(?:\*(?!\/)|\/\/|#)?\s*/g, ' ');
const simplify = (s: string) =>
  s
    .toLowerCase()
    .replace(/[`*_\\]/g, '')
    .replace(/\s+/g, ' ');

describe('citations of the requirements', () => {
  it('no file cites a document or an issue that is not in the repository', () => {
    const outside = texts.flatMap(({ file, text }) =>
      [...text.matchAll(/\b(?:SPEC|DESIGN)\b(?: §| tool|'s)|\bDOMAIN\.md\b|\b[Ii]ssue \d+\b/g)].map(
        (m) => `${file}: ${m[0]}`,
      ),
    );
    expect(outside).toEqual([]);
  });

  it('every citation leads to a file, tool, section, heading or phrase that exists', () => {
    const cache = new Map<string, string>();
    const read = (name: string) => {
      if (!cache.has(name)) {
        try {
          cache.set(name, readFileSync(path.join(root, 'docs/requirements', name), 'utf8'));
        } catch {
          cache.set(name, '');
        }
      }
      return cache.get(name)!;
    };
    const broken: string[] = [];
    for (const { file, text } of texts) {
      for (const m of folded(text).matchAll(
        /docs\/requirements\/([a-z-]+\.md)(?: (§\d+(?:\.\d+)?)| tools? (\d+)(?:-(\d+))?| "([^"]+)")?/g,
      )) {
        const [citation, name, section, tool, toolTo, quoted] = m;
        const doc = read(name);
        if (!doc) broken.push(`${file}: ${citation} (no such file)`);
        else if (section && !new RegExp(`^#+ ${section.slice(1).replace('.', '\\.')}[ .]`, 'm').test(doc))
          broken.push(`${file}: ${citation}`);
        else if (tool && [tool, toolTo].filter(Boolean).some((n) => !doc.includes(`## Tool ${n}:`)))
          broken.push(`${file}: ${citation}`);
        else if (quoted && !simplify(doc).includes(simplify(quoted))) broken.push(`${file}: ${citation}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
