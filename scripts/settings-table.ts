// `npm run docs:settings`: writes the settings table of docs/configuration.md from the settings'
// one declaration (src/server/settings.ts), so the document says what the server reads. `--check`
// only compares, exiting 1 when the document is out of date (tests/integration/settings-doc.test.ts
// runs the same comparison).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../src/server/settings.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CONFIGURATION_MD = path.join(ROOT, 'docs', 'configuration.md');
const BEGIN = '<!-- settings:begin (npm run docs:settings writes what follows from src/server/settings.ts) -->';
const END = '<!-- settings:end -->';

/**
 * The settings table: one row per setting of src/server/settings.ts, in its order.
 * @returns the table's lines, header first
 */
function settingsTable(): string[] {
  return [
    '| Variable | Default | What it does |',
    '|---|---|---|',
    ...Object.entries(SETTINGS).map(([name, { shown, about }]) => `| \`${name}\` | ${shown} | ${about} |`),
  ];
}

/**
 * docs/configuration.md with its settings table written from the declarations (docs/configuration.md
 * "Settings").
 * @param markdown the document as it is
 * @returns the document with the lines between the settings markers replaced by {@link settingsTable}
 * @throws Error when the markers are missing
 */
export function withSettingsTable(markdown: string): string {
  const begin = markdown.indexOf(BEGIN);
  const end = markdown.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/configuration.md has no ${BEGIN} … ${END} section`);
  return `${markdown.slice(0, begin + BEGIN.length)}\n${settingsTable().join('\n')}\n${markdown.slice(end)}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const text = fs.readFileSync(CONFIGURATION_MD, 'utf8');
  const next = withSettingsTable(text);
  if (process.argv.includes('--check')) {
    if (next !== text) {
      console.error("docs/configuration.md's settings table is out of date: run npm run docs:settings");
      process.exit(1);
    }
  } else if (next !== text) {
    fs.writeFileSync(CONFIGURATION_MD, next);
    console.log('docs/configuration.md: the settings table written');
  }
}
