// `npm run docs:settings`: writes the settings table of docs/configuration.md from the settings'
// one declaration (src/server/settings.ts), so the document says what the server reads. `--check`
// only compares, exiting 1 when the document is out of date (tests/integration/settings-doc.test.ts
// runs the same comparison).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../src/server/settings.ts';
import { runDocScript, withSection } from './doc-section.ts';

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
  return withSection(markdown, BEGIN, END, settingsTable().join('\n'), 'docs/configuration.md');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runDocScript(CONFIGURATION_MD, withSettingsTable, {
    stale: "docs/configuration.md's settings table is out of date: run npm run docs:settings",
    written: 'the settings table written',
  });
}
