import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { staticImports } from '../helpers/static-imports.ts';

/**
 * docs/operations.md "Memory": libraries that only some requests or only PostgreSQL need are loaded
 * with a dynamic import() when first used, not at start, so that they cost no memory in a server
 * that never uses them. A static import anywhere on the server's start path would undo that
 * silently; this follows every static import from src/server/main.ts and fails on one.
 */

const root = path.resolve(import.meta.dirname, '../..');
const ON_FIRST_USE = {
  docx: 'the bylaws Word document',
  pdfkit: 'the good-standing letter and the GEN update PDF',
  nodemailer: 'the first mail sent over SMTP',
  'pg-boss': 'the jobs on PostgreSQL',
  yauzl: "the IRS data refresh's first zip from the IRS",
} as const;

describe('libraries loaded on first use', () => {
  const { files, packages } = staticImports(root, [path.join(root, 'src/server/main.ts')]);

  it('follows the server from its entry point to the packages it loads at start', () => {
    expect(files.has(path.join(root, 'src/server/app.ts'))).toBe(true);
    expect(packages.has('fastify')).toBe(true);
    expect(packages.has('drizzle-orm')).toBe(true);
  });

  it.each(Object.entries(ON_FIRST_USE))('does not load %s at start (%s)', (library) => {
    expect(packages.get(library)).toBeUndefined();
  });

  it('reads a type-only import as no load and a value import as one', () => {
    const { packages: fromDocx } = staticImports(root, [path.join(root, 'src/server/modules/bylaws/render-docx.ts')]);
    expect(fromDocx.has('docx')).toBe(true);
    const { packages: fromRunner } = staticImports(root, [path.join(root, 'src/server/jobs/runner.ts')]);
    expect(fromRunner.has('pg-boss')).toBe(false);
  });
});
