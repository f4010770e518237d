// `npm test`: every test of the project, in the order a failure is cheapest to read.
// 0. the TypeScript check, knip (unused files, exports, dependencies), then lint and format (ESLint with zero warnings,
// Prettier's check); 1. unit + integration on embedded PGlite; 1b. the unit suite again on the Node binary of
// TEST_ALSO_NODE when set; 2. integration again on PostgreSQL when TEST_DATABASE_URL is set (on TEST_ALSO_NODE's
// Node when set), then two server processes on it behind a load balancer; 3. durability (kill -9 under load; a second process on the data
// directory); 4. sqlmap and wapiti against the running server when both are installed; 5. the web client build;
// 6. the production install (npm ci --omit=dev, start:prod, SIGTERM); 7. end-to-end tests in the system Chromium.
// Prints one closing line 'Tests: N passed, N failed' and exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

fs.mkdirSync('test-results', { recursive: true });
const totals = { passed: 0, failed: 0 };
let ok = true;

const startedAt = Date.now();
const stageTimes = [];

function run(label, args, env = {}, node = process.execPath) {
  console.log(`\n=== ${label} ===`);
  const began = Date.now();
  const result = spawnSync(node, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  // Each stage's wall time, printed again at the end, so a slow run says where its minutes went.
  const seconds = Math.round((Date.now() - began) / 1000);
  stageTimes.push(`${String(seconds).padStart(5)} s  ${label}`);
  console.log(`=== ${label}: ${result.status === 0 ? 'passed' : 'failed'} in ${seconds} s ===`);
  if (result.status !== 0) ok = false;
  return result.status === 0;
}

function vitest(label, projects, jsonName, env, node = process.execPath) {
  const file = `test-results/${jsonName}.json`;
  fs.rmSync(file, { force: true });
  const args = [
    'node_modules/vitest/vitest.mjs',
    'run',
    ...projects.flatMap((p) => ['--project', p]),
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${file}`,
  ];
  run(label, args, env, node);
  if (fs.existsSync(file)) {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    totals.passed += report.numPassedTests;
    totals.failed += report.numFailedTests + (report.numTotalTests === 0 ? 1 : 0);
  } else {
    totals.failed += 1;
  }
}

if (!run('TypeScript check', ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json']))
  totals.failed += 1;
// knip: no unused file, export or dependency (knip.json says where the entry points are).
if (!run('unused files, exports and dependencies (knip)', ['node_modules/knip/bin/knip.js', '--no-progress']))
  totals.failed += 1;
// Lint and format (docs/decisions/013-lint-and-format.md): any ESLint warning or unformatted file fails the run.
const lintAndFormat = {
  ESLint: ['node_modules/eslint/bin/eslint.js', '.', '--max-warnings=0'],
  Prettier: ['node_modules/prettier/bin/prettier.cjs', '--check', '.', '--log-level', 'warn'],
};
for (const [tool, args] of Object.entries(lintAndFormat)) {
  if (!run(`lint and format (ESLint, Prettier): ${tool}`, args)) totals.failed += 1;
}
vitest(
  `unit and integration tests (PGlite, Node ${process.versions.node})`,
  ['unit', 'integration'],
  'unit-integration',
  { TEST_DATABASE_URL: '' },
);
// TEST_ALSO_NODE names another Node binary (.ci/run installs Node 24). The unit suite runs on it in full; the
// integration suite runs on it once, against PostgreSQL when TEST_DATABASE_URL is set (so each Node line runs
// the integration suite once, on one of the two databases), else on PGlite. A whole second PGlite round doubled
// the run's longest stage for the same code on the same database.
const otherNode = process.env.TEST_ALSO_NODE;
const otherVersion = otherNode
  ? spawnSync(otherNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : null;
if (otherNode && process.env.TEST_DATABASE_URL) {
  vitest(`unit tests (Node ${otherVersion})`, ['unit'], 'unit-other-node', { TEST_DATABASE_URL: '' }, otherNode);
} else if (otherNode) {
  vitest(
    `unit and integration tests (PGlite, Node ${otherVersion})`,
    ['unit', 'integration'],
    'unit-integration-other-node',
    { TEST_DATABASE_URL: '' },
    otherNode,
  );
}
if (process.env.TEST_DATABASE_URL) {
  const node = otherNode ?? process.execPath;
  const version = otherVersion ?? process.versions.node;
  vitest(
    `integration tests (PostgreSQL at ${process.env.TEST_DATABASE_URL.replace(/:[^:@/]*@/, ':***@')}, Node ${version})`,
    ['integration'],
    'integration-postgres',
    {},
    node,
  );
  vitest('two server processes behind a load balancer (PostgreSQL)', ['multi-process'], 'multi-process', {});
}
// The server killed with SIGKILL under load, and a second process on its data directory (also on PostgreSQL when set).
vitest('durability tests', ['durability'], 'durability', {});
// sqlmap and wapiti against the running server (the in-process security tests ran above); counted as one check.
const hasCommand = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
if (hasCommand('sqlmap') && hasCommand('wapiti')) {
  if (
    run('security scanners (sqlmap, wapiti)', [
      '--import',
      'tsx',
      'scripts/security-scan.ts',
      '--only',
      'sqlmap,wapiti',
    ])
  )
    totals.passed += 1;
  else totals.failed += 1;
} else {
  console.log(
    '\n=== security scanners: not run (install sqlmap and wapiti, or use npm run test:security, which installs them) ===',
  );
}
if (run('web client build', ['scripts/build.mjs', '--quiet'])) {
  vitest(
    'production install (npm ci --omit=dev, npm run start:prod, npm start, SIGTERM)',
    ['production'],
    'production',
    { TEST_DATABASE_URL: '' },
  );
  vitest('end-to-end tests (Chromium)', ['e2e'], 'e2e', { TEST_DATABASE_URL: '' });
} else {
  totals.failed += 1;
}

console.log(`\nTime by stage (${Math.round((Date.now() - startedAt) / 1000)} s in all):\n${stageTimes.join('\n')}`);
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
