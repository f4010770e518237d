import { defineConfig } from 'vitest/config';

/**
 * Six projects: unit (pure rules), integration (app.inject on PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set), e2e (system Chromium against a running server; needs `npm run build`),
 * production (the install of npm ci --omit=dev started with npm run start:prod; needs the build),
 * durability (the real server killed under load, and a second process on its data directory) and
 * multi-process (two server processes on the PostgreSQL server of TEST_DATABASE_URL).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: ['src/server/**/*.int.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['src/server/**/*.int.test.ts', 'tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
        },
      },
      {
        test: {
          // Two real server processes on one PostgreSQL database (TEST_DATABASE_URL) behind a load balancer.
          name: 'multi-process',
          include: ['tests/multi-process/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 240_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          setupFiles: ['tests/e2e/support/on-failure.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        test: {
          // The production install path: npm ci --omit=dev with the built dist/, npm run start:prod, npm start, npm run build.
          name: 'production',
          include: ['tests/production/**/*.test.ts'],
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'durability',
          include: ['tests/durability/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 120_000,
          pool: 'forks',
          fileParallelism: false,
        },
      },
    ],
  },
});
