import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ARCHITECTURE_MD, withTree } from '../../scripts/architecture-tree.ts';

/**
 * docs/ARCHITECTURE.md shows the code as it is (docs/ARCHITECTURE.md "The tree"): its tree is the
 * one `npm run docs:tree` draws from src/ today, and its picture at the top names every module of
 * src/server/modules/, and no module that is gone.
 */
describe('the architecture document', () => {
  const text = fs.readFileSync(ARCHITECTURE_MD, 'utf8');
  const root = path.join(path.dirname(ARCHITECTURE_MD), '..', 'src');
  /** Every source file of src/ (tests beside the code left out), by absolute path, with its text. */
  const sources = fs
    .readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => ({ file: path.join(root, f), text: fs.readFileSync(path.join(root, f), 'utf8') }));

  it('draws the tree of src/ as it is (npm run docs:tree redraws it)', () => {
    expect(withTree(text)).toBe(text);
  });

  it('names every module of src/server/modules in its picture, and only those', () => {
    const modulesDir = path.join(root, 'server', 'modules');
    const modules = fs
      .readdirSync(modulesDir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    // The picture's modules: from "modules/<feature>/routes.ts" to the database below them.
    const picture = text.slice(text.indexOf('modules/<feature>/routes.ts'), text.indexOf(' Drizzle ORM ('));
    // A module in the picture is a name at the start of its description: "        name (…" or "· name".
    const named = new Set([...picture.matchAll(/(?:^ {8}|· )([a-z][a-z0-9-]+)(?= \(| ·|$)/gm)].map((m) => m[1]));
    expect(
      modules.filter((m) => !named.has(m)),
      'modules the picture does not describe',
    ).toEqual([]);
    const stale = [...named].filter((n) => !modules.includes(n) && /^[a-z-]+$/.test(n));
    expect(stale, 'names in the picture that are no module').toEqual([]);
  });

  it('has no import loop in src/: each file can be read without the files that import it', () => {
    // Static imports only (`import … from './x.ts'`, `export … from`): a lazy import() breaks no load order.
    const imports = new Map(
      sources.map(({ file, text: source }) => [
        file,
        [...source.matchAll(/^(?:import|export)\s[^;]*?from '(\.{1,2}\/[^']+)'/gm)]
          .filter((m) => !/^import type /.test(m[0]))
          .map((m) => path.resolve(path.dirname(file), m[1])),
      ]),
    );
    const loops: string[] = [];
    const done = new Set<string>();
    const visit = (file: string, trail: string[]) => {
      const at = trail.indexOf(file);
      if (at >= 0) {
        loops.push(
          trail
            .slice(at)
            .concat(file)
            .map((f) => path.relative(root, f))
            .join(' → '),
        );
        return;
      }
      if (done.has(file)) return;
      for (const next of imports.get(file) ?? []) visit(next, [...trail, file]);
      done.add(file);
    };
    for (const { file } of sources) visit(file, []);
    expect(loops).toEqual([]);
  });

  it('says at the top of each source file over 400 lines why it is that long', () => {
    const unexplained = sources
      .filter(({ text: source }) => {
        const lines = source.split('\n');
        return lines.length > 401 && !lines[0]?.startsWith('// Longer than 400 lines: ');
      })
      .map(({ file }) => path.relative(root, file));
    expect(unexplained, 'split the file, or begin it with "// Longer than 400 lines: <why>"').toEqual([]);
  });

  it('writes no query key by hand in the web client: each comes from its route contract', () => {
    // A key is an array of literals where it is written by hand: `queryKey: ['admin-levels']`, a
    // `queryKey={[…]}` prop, `setQueryData([…])`; a derived one is `queryOf(…)`, `keyOf(…)` or `q.queryKey`.
    const byHand = /queryKey\s*[:=]\s*\{?\s*\[|QueryData(?:<[^>]*>)?\(\s*\[|Queries\(\{\s*queryKey:\s*\[/;
    const written = sources
      .filter(({ file, text: source }) => file.includes(`${path.sep}web${path.sep}`) && byHand.test(source))
      .map(({ file }) => path.relative(root, file));
    expect(written, 'use queryOf(contract, input) and keyOf(contract) from src/web/lib/queries.ts').toEqual([]);
  });
});
