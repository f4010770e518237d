import fs from 'node:fs';
import { round } from './load.ts';

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  startTime: number;
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a V8 CPU profile's time went: self time by package (or area) and by function. */
export interface ProfileSummary {
  /** Whether only the load runs were counted (else the whole life of the process, start-up included). */
  loadOnly: boolean;
  /** Sampled wall time, ms. */
  totalMs: number;
  /** Time not idle, ms; the percentages below are shares of it. */
  busyMs: number;
  areas: { area: string; ms: number; pct: number }[];
  topFunctions: { fn: string; ms: number; pct: number }[];
}

/** The package or part a script belongs to: an npm package name, 'node' internals, or 'src/…'. */
function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const src = /\/(src\/(?:server|shared)\/[^/]+(?:\/[^/]+)?)\//.exec(url);
  if (src) return src[1];
  return url.replace(/^file:\/\/.*?\/(bench|src)\//, '$1/');
}

function shortUrl(url: string): string {
  return url.replace(/^file:\/\/.*?\/node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
}

/**
 * Reads a `.cpuprofile` written by `node --cpu-prof` and sums the self time of every sample by
 * area (npm package, node internals, product folder) and by function.
 * @param file path of the profile
 * @param windows count only samples inside these [start, end] times, in µs of the monotonic clock
 *   (process.hrtime; V8 stamps its samples with the same clock); all samples when empty
 * @param top how many functions to list (default 15)
 */
export function summarizeCpuProfile(file: string, windows: [number, number][] = [], top = 15): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const areaUs = new Map<string, number>();
  const fnUs = new Map<string, number>();
  let totalUs = 0;
  let idleUs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const node = byId.get(id);
    if (!node || us <= 0) return;
    if (windows.length && !windows.some(([a, b]) => at >= a && at <= b)) return;
    totalUs += us;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === '(idle)') {
      idleUs += us;
      return;
    }
    const area = areaOf(url, functionName);
    areaUs.set(area, (areaUs.get(area) ?? 0) + us);
    const fn = url
      ? `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`
      : functionName || '(anonymous)';
    fnUs.set(fn, (fnUs.get(fn) ?? 0) + us);
  });
  const busyUs = totalUs - idleUs;
  const rows = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, us]) => ({ k, ms: round(us / 1000, 0), pct: round((us / busyUs) * 100, 1) }));
  return {
    loadOnly: windows.length > 0,
    totalMs: round(totalUs / 1000, 0),
    busyMs: round(busyUs / 1000, 0),
    areas: rows(areaUs, 20).map(({ k, ms, pct }) => ({ area: k, ms, pct })),
    topFunctions: rows(fnUs, top).map(({ k, ms, pct }) => ({ fn: k, ms, pct })),
  };
}
