import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIGURATION_MD, withSettingsTable } from '../../scripts/settings-table.ts';
import { loadConfig, READ_VARIABLES } from '../../src/server/config.ts';
import { SETTINGS } from '../../src/server/settings.ts';

/**
 * docs/configuration.md says what the server reads (docs/configuration.md "Settings"): its table is
 * the one `npm run docs:settings` writes from src/server/settings.ts today, it has a row for every
 * variable loadConfig reads, and a default it shows as one plain value is the one the server uses.
 */
describe('the settings document', () => {
  const text = fs.readFileSync(CONFIGURATION_MD, 'utf8');

  it('has the settings table written from the declarations (npm run docs:settings writes it)', () => {
    expect(withSettingsTable(text)).toBe(text);
  });

  it('has a row for every variable loadConfig reads, and shows the default the server uses', () => {
    const table = text.slice(0, text.indexOf('## Production settings'));
    const rows = new Map(
      [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| (.*?) \| .* \|$/gm)].map((m) => [m[1], m[2]] as const),
    );
    expect(
      READ_VARIABLES.filter((name) => !rows.has(name)),
      'variables without a row',
    ).toEqual([]);
    expect(
      [...rows.keys()].filter((name) => !READ_VARIABLES.includes(name)),
      'rows of no variable',
    ).toEqual([]);

    // The configuration without the generated credentials, which differ from one load to the next.
    const comparable = (env: Record<string, string>) => {
      const { payments, ...config } = loadConfig(env);
      return { ...config, payments: { ...payments, apiLoginId: '', transactionKey: '', clientKey: '' } };
    };
    const defaults = comparable({});
    // One plain value: `3000`, not "`1` (must be `0` in production)", nor `$DATA_DIR/files`.
    const plain = [...rows]
      .map(([name, shown]) => [name, /^`([^`$]+)`$/.exec(shown)?.[1]] as const)
      .filter(([name, value]) => value !== undefined && READ_VARIABLES.includes(name));
    expect(plain.length).toBeGreaterThan(60);
    for (const [name, value] of plain) {
      const declared = SETTINGS[name as keyof typeof SETTINGS].schema.safeParse(undefined);
      // ADMIN_EMAIL and DEMO_EMAIL show the seed's address: the setting itself has no default.
      if (declared.data === undefined) continue;
      expect(comparable({ [name]: value as string }), `${name}=${value} as the table shows`).toEqual(defaults);
    }
  });
});
