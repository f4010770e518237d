// ESLint for the whole repository: `npm run lint` (tsc, then this with zero warnings), also a stage of
// `npm test`. Formatting is Prettier's (`npm run format`), so the style rules are turned off here.
// What each rule set is for: docs/decisions/013-lint-and-format.md.
import fs from 'node:fs';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Each folder of src/web/features is one feature; a part two features need lives in src/web/components
// (or src/web/lib), so a feature can be changed or removed without reading the others
// (docs/ARCHITECTURE.md "Web").
const WEB_FEATURES = fs
  .readdirSync('src/web/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      'dist/',
      '.dist/',
      'dist.next-*/',
      'node_modules/',
      '.tools/',
      'data/',
      'coverage/',
      'test-results/',
      'bench/results/',
      'bench/.cache/',
      'src/server/db/migrations/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    rules: {
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index', 'type'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'import-x/no-duplicates': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['src/web/**/*.tsx'], ...jsxA11y.flatConfigs.recommended },
  {
    // The web client calls the server through its route contracts (src/web/lib/http.ts `call`,
    // `upload`, the form kit), so every answer is typed by the schema the server checked it against.
    files: ['src/web/**/*.{ts,tsx}'],
    ignores: ['src/web/lib/http.ts', '**/*.test.ts', '**/*.test.tsx'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the route through its contract: call() or upload() of src/web/lib/http.ts.' },
        {
          name: 'XMLHttpRequest',
          message: 'Call the route through its contract: call() or upload() of src/web/lib/http.ts.',
        },
      ],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: WEB_FEATURES.map((feature) => ({
            target: `./src/web/features/${feature}`,
            from: './src/web/features',
            except: [`./${feature}`],
            message: 'Features do not import each other: move the shared part to src/web/components.',
          })),
        },
      ],
    },
  },
  {
    // A test, a bench or a script states what it expects with `!` where the line before checked it;
    // a wrong guess fails the run, which is what such code is for.
    files: ['tests/**', 'bench/**', 'scripts/**', '**/*.test.ts', '**/*.test.tsx'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
