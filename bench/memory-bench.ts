import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONTACT_BODY, formVisitors } from './form-bench.ts';
import { log, type LoadSummary, runLoad } from './lib/load.ts';
import { startServer, type ServerStats } from './lib/server-process.ts';
import { importedDatabaseDir, searchUrl, type ImportReport } from './search-bench.ts';

/** docs/benchmarks.md "Public form submit and memory": the server on the embedded database, with the whole IRS roster. */
const MEMORY_TARGETS_MB = { atReady: 300, peak: 450 } as const;

export interface MemoryBenchReport {
  import: ImportReport;
  /** The roster's organizations in the database the server ran on. */
  organizations: number;
  form: LoadSummary;
  search: LoadSummary;
  server: ServerStats;
  /**
   * Resident set at ready (MB) of every start, in the order run: the server started `starts`
   * times on the same data folder, the last of them the one put under load.
   */
  rssAtReadyRunsMb: number[];
  /** The median of `rssAtReadyRunsMb`: the figure held against the target. */
  rssAtReadyMedianMb: number;
  targetsMb: typeof MEMORY_TARGETS_MB;
  pass: { atReady: boolean; peak: boolean };
}

/**
 * The full product on the embedded database holding every organization of the IRS EO BMF files
 * (search-bench's imported database, copied to a fresh data folder): its resident set once it
 * listens, over `starts` starts on that folder (one start in three or so lands about 20 MB higher
 * than the others, docs/benchmarks.md "Route contracts: before and after", so the median is the
 * figure held against the target); then, on the last start, under the form benchmark's load
 * (POST /contact, 50 visitors, `durationS` seconds) followed by the subordinate search ('church',
 * 4 connections, half as long), and its peak (VmHWM) when stopped. Writes only in its temporary
 * data folder, removed afterwards.
 * @param opts.durationS seconds of form load; `opts.starts` 1–9 starts (the bench's default is 3)
 * @returns the figures and whether the median at ready and the peak meet MEMORY_TARGETS_MB
 */
export async function runMemoryBench(opts: { durationS: number; starts: number }): Promise<MemoryBenchReport> {
  const { dir, report } = await importedDatabaseDir();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gs-bench-memory-'));
  try {
    fs.cpSync(dir, path.join(dataDir, 'db'), { recursive: true });
    log(`[memory] starting the full server on a copy of the IRS roster (${report.rowsImported} organizations)`);
    const start = () =>
      startServer({ mode: 'full', label: 'memory-pglite-roster', database: { kind: 'pglite', dataDir } });
    const atReady: number[] = [];
    for (let i = 1; i < opts.starts; i++) {
      const idle = await start();
      const { memory } = await idle.stop();
      atReady.push(memory.rssAtReadyMb);
      log(`[memory]   start ${i} of ${opts.starts}: ${memory.rssAtReadyMb} MB at ready`);
    }
    const server = await start();
    let stats: ServerStats | undefined;
    try {
      const visitors = await formVisitors(server.base, 50);
      const form = await runLoad({
        url: `${server.base}/contact`,
        method: 'POST',
        perConnectionHeaders: visitors,
        body: CONTACT_BODY,
        connections: 50,
        duration: opts.durationS,
      });
      log(`[memory]   form ${form.reqPerSec} req/s, non-2xx ${form.non2xx}`);
      const search = await runLoad({
        url: server.base + searchUrl({ keyword: 'church', page: 1, class: 'any' }),
        connections: 4,
        duration: Math.max(1, Math.round(opts.durationS / 2)),
      });
      log(`[memory]   search ${search.reqPerSec} req/s, non-2xx ${search.non2xx}`);
      stats = await server.stop();
      const { memory } = stats;
      atReady.push(memory.rssAtReadyMb);
      const median = [...atReady].sort((a, b) => a - b)[Math.floor((atReady.length - 1) / 2)];
      log(
        `[memory]   start ${atReady.length} of ${opts.starts}: ${memory.rssAtReadyMb} MB at ready, ${memory.peakRssMb} MB peak`,
      );
      log(`[memory]   median at ready ${median} MB (${atReady.join(', ')})`);
      return {
        import: report,
        organizations: report.rowsImported,
        form,
        search,
        server: stats,
        rssAtReadyRunsMb: atReady,
        rssAtReadyMedianMb: median,
        targetsMb: MEMORY_TARGETS_MB,
        pass: {
          atReady: median <= MEMORY_TARGETS_MB.atReady,
          peak: memory.peakRssMb <= MEMORY_TARGETS_MB.peak,
        },
      };
    } finally {
      if (!stats) await server.stop().catch((err) => log(`stop server: ${err}`));
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
