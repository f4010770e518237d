import { readFileSync } from 'node:fs';
import path from 'node:path';

/** An `import … from '…'`, `import '…'` or `export … from '…'` at the start of a line; group 1 is the specifier. */
export const STATIC_IMPORT = /^\s*(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"]([^'"]+)['"]/gm;

/** What the static imports from some entry points reach, each with the chain of files that reached it. */
export interface StaticImportGraph {
  /** Source files of the project, by absolute path. */
  files: Map<string, string[]>;
  /** Packages imported for their values (type-only imports are left out), by name: `docx`, `@fastify/swagger`. */
  packages: Map<string, string[]>;
}

/**
 * Follows every static import from `entries` through the project's own files, as Node would load
 * them at start (a dynamic `import()` is not followed: it loads when it runs).
 * @param root the project's root folder, for the chains' relative paths
 * @param entries absolute paths of the entry files
 * @returns the files and packages reached, with how
 */
export function staticImports(root: string, entries: string[]): StaticImportGraph {
  const files = new Map<string, string[]>();
  const packages = new Map<string, string[]>();
  const queue: [string, string[]][] = entries.map((e) => [e, [path.relative(root, e)]]);
  while (queue.length) {
    const [file, chain] = queue.shift()!;
    if (files.has(file)) continue;
    files.set(file, chain);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const spec = match[1];
      if (spec.startsWith('.')) {
        const target = path.resolve(path.dirname(file), spec);
        queue.push([target, [...chain, path.relative(root, target)]]);
      } else if (!/^\s*(?:import|export)\s+type\s/.test(match[0]) && !spec.startsWith('node:')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
        if (!packages.has(name)) packages.set(name, [...chain, name]);
      }
    }
  }
  return { files, packages };
}
