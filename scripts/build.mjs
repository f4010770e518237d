// npm run build: the web client (dist/web) and the server's render of the pages (dist/ssr).
//
// Each build is written to a folder of its own under .dist/ and then swapped in at once: `dist` is
// a symbolic link replaced by rename(2), so a server starting during a build, or after a failed
// one, always finds a whole build (docs/operations.md "Build and start"). The two builds before the
// current one are kept: a running server resolved `dist` when it started and keeps serving its own.
//
//   node scripts/build.mjs            build and swap in
//   node scripts/build.mjs --quiet    the same with warnings only
//   node scripts/build.mjs --if-stale build only when there is no build or a source is newer than it
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { routePreloads, routeScreens } from './route-preloads.mjs';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const DIST = path.join(ROOT, 'dist');
const BUILDS = path.join(ROOT, '.dist');
const STAMP_FILE = 'build-info.json';
const KEEP_PREVIOUS = 2;
/** What the client and the server's render are built from (the server's own code runs from src/). */
const SOURCES = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json', 'scripts/build.mjs'];

/** Newest modification time, in ms, of the files under `entries` (relative to the project). */
function newestSource(entries) {
  let newest = 0;
  const visit = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(file)) visit(path.join(file, name));
    } else if (!/\.test\.tsx?$/.test(file)) {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const entry of entries) visit(path.join(ROOT, entry));
  return newest;
}

/** @returns why a build is needed ('missing' or 'stale'), or null when the current one is up to date */
function staleness() {
  const stamp = path.join(DIST, STAMP_FILE);
  if (
    !fs.existsSync(path.join(DIST, 'web', 'index.html')) ||
    !fs.existsSync(path.join(DIST, 'ssr', 'entry-server.js')) ||
    !fs.existsSync(stamp)
  )
    return 'missing';
  const { sourcesMtimeMs } = JSON.parse(fs.readFileSync(stamp, 'utf8'));
  return newestSource(SOURCES) > sourcesMtimeMs ? 'stale' : null;
}

/** Replaces `dist` with a link to `target` in one rename; a `dist` folder of an older layout is moved aside first. */
function swapIn(target) {
  const current = fs.lstatSync(DIST, { throwIfNoEntry: false });
  if (current && !current.isSymbolicLink()) fs.renameSync(DIST, path.join(BUILDS, `unlinked-${Date.now()}`));
  const next = `${DIST}.next-${process.pid}`;
  fs.rmSync(next, { force: true });
  fs.symlinkSync(path.relative(ROOT, target), next, 'dir');
  fs.renameSync(next, DIST);
}

/** Removes builds older than the current one and the KEEP_PREVIOUS before it. */
function prune(current) {
  const builds = fs
    .readdirSync(BUILDS)
    .map((name) => path.join(BUILDS, name))
    .filter((dir) => dir !== current)
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  for (const old of builds.slice(KEEP_PREVIOUS)) fs.rmSync(old, { recursive: true, force: true });
}

const quiet = process.argv.includes('--quiet');
if (process.argv.includes('--if-stale')) {
  const reason = staleness();
  if (!reason) {
    if (!quiet) console.log('The build in dist/ is up to date.');
    process.exit(0);
  }
  console.log(
    reason === 'missing'
      ? 'No build yet: building the web client (about a minute).'
      : 'Sources changed since the last build: building the web client.',
  );
}

// A build is always a production build, whatever NODE_ENV the caller runs with (a test runner sets
// 'test', which would make Vite compile JSX for React's development runtime).
process.env.NODE_ENV = 'production';
const logLevel = quiet ? 'warn' : 'info';
fs.mkdirSync(BUILDS, { recursive: true });
const sourcesMtimeMs = newestSource(SOURCES);
const target = path.join(BUILDS, new Date().toISOString().replace(/[:.]/g, '-'));
try {
  // The server's render first: its routes tell which modules each page's screen loads, and so
  // which of the client's chunks the page preloads (scripts/route-preloads.mjs).
  const ssrDir = path.join(target, 'ssr');
  await build({
    logLevel,
    build: { ssr: 'entry-server.tsx', outDir: ssrDir, emptyOutDir: true, sourcemap: true, manifest: true },
  });
  const screens = await routeScreens(ssrDir);
  await build({
    logLevel,
    build: { outDir: path.join(target, 'web'), emptyOutDir: true },
    plugins: [routePreloads(screens)],
  });
  fs.writeFileSync(
    path.join(target, STAMP_FILE),
    JSON.stringify({ builtAt: new Date().toISOString(), sourcesMtimeMs }) + '\n',
  );
} catch (err) {
  fs.rmSync(target, { recursive: true, force: true });
  console.error('The build failed; the previous build (if any) is still in place.');
  throw err;
}
swapIn(target);
prune(target);
