import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The repository's documents, read as a newcomer reads them: the README is a short front door
 * (what it is, the two commands, the main settings, links), and every link between the documents
 * leads to a file that exists.
 */

const root = path.resolve(import.meta.dirname, '../..');
const documents = [
  'README.md',
  ...['docs', 'docs/decisions', 'docs/requirements'].flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${dir}/${f}`),
  ),
];

describe('documents', () => {
  it('the README starts with the command that runs the product and the one that passes the tests, in under 1,200 words', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/```sh\n([^`]+)```/g)].map((m) => m[1].trim());
    expect(blocks.slice(0, 2)).toEqual(['npm install && npm start', 'npm test']);
    expect(readme.split(/\s+/).filter(Boolean).length).toBeLessThan(1_200);
  });

  it.each(documents)('%s links only to files of the repository that exist', (doc) => {
    const text = readFileSync(path.join(root, doc), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1])
      .filter((t) => !/^[a-z]+:/.test(t));
    const missing = targets.filter((t) => !existsSync(path.resolve(path.dirname(path.join(root, doc)), t)));
    expect(missing).toEqual([]);
  });
});
