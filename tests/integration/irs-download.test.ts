import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { asc, count, eq, inArray } from 'drizzle-orm';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accounts,
  irsEpostcards,
  irsOrganizations,
  irsPub78,
  irsReleases,
  irsRevocations,
} from '../../src/server/db/schema.ts';
import { createUser } from '../../src/server/db/seed/factories.ts';
import { adminJobContracts } from '../../src/shared/contracts/admin-jobs.ts';
import { Agent, createTestApp, signedIn, type TestApp } from '../helpers/test-app.ts';
import type { AddressInfo } from 'node:net';

/**
 * The IRS data refresh downloading the IRS's own files (docs/irs-data.md "Refresh"), against a
 * local HTTP peer on 127.0.0.1 that serves them as the IRS does: the EO BMF extracts as plain CSV
 * (real rows of the April 2026 extract, ../shared/data/irs-eo-bmf), the Form 990-N data, the
 * Automatic Revocation List and the Publication 78 data as zips of one pipe-delimited file each
 * (tests/fixtures/irs), every answer with a Last-Modified date and an ETag. Staff run the job from
 * Admin → Jobs and read the run, the releases the instant check and the standing card cite, and
 * the rows.
 */

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/irs');
const BMF_DIR = path.resolve('../shared/data/irs-eo-bmf');
const STAFF = { email: 'irs.download.staff@example.com', password: 'Irs-download-pass-1' };
const MB = 1024 * 1024;

/** The header and the first `n` rows of a real BMF state file, as the IRS writes them (CRLF). */
function bmfSample(file: string, n: number): { text: string; eins: string[] } {
  const lines = fs.readFileSync(path.join(BMF_DIR, file), 'latin1').split('\r\n');
  // The loader takes ASCII or UTF-8 text: keep the rows that are plain ASCII, as most are.
  const rows = lines
    .slice(1)
    .filter((l) => /^\d{9},[\x20-\x7e]*$/.test(l))
    .slice(0, n);
  return { text: [lines[0], ...rows, ''].join('\r\n'), eins: rows.map((r) => r.slice(0, 9)) };
}

const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
const zipOf = (files: Record<string, Buffer | string>) =>
  Buffer.from(
    zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v]))),
  );

const EO1 = bmfSample('eo_ct.csv', 25);
const EO4 = bmfSample('eo4.csv', 15);

/** What the peer answers at one path. */
interface Served {
  body: Buffer;
  lastModified?: string;
  etag: string;
  /** false: answer 200 whatever If-None-Match / If-Modified-Since say (a server that ignores them). */
  conditional?: boolean;
  /** Answer this status (with `times`, only the next that many requests). */
  status?: number;
  times?: number;
  /** Send half of the body under the full Content-Length, then close the connection. */
  cutShort?: boolean;
  /** Never answer. */
  hang?: boolean;
}

const PATHS = {
  eo1: '/pub/irs-soi/eo1.csv',
  eo4: '/pub/irs-soi/eo4.csv',
  epostcard: '/pub/epostcard/data-download-epostcard.zip',
  revocations: '/pub/epostcard/data-download-revocation.zip',
  pub78: '/pub/epostcard/data-download-pub78.zip',
};

const served = new Map<string, Served>();
const requests: { path: string; ifNoneMatch?: string; ifModifiedSince?: string }[] = [];
const peer = http.createServer((req, res) => {
  const url = req.url ?? '/';
  requests.push({
    path: url,
    ifNoneMatch: req.headers['if-none-match'],
    ifModifiedSince: req.headers['if-modified-since'],
  });
  const s = served.get(url);
  if (!s) {
    res.writeHead(404).end('Not Found');
    return;
  }
  if (s.hang) return;
  if (s.status && (s.times === undefined || s.times-- > 0)) {
    res.writeHead(s.status, { 'retry-after': '0' }).end('The server is busy');
    return;
  }
  const headers: http.OutgoingHttpHeaders = { etag: s.etag, 'content-length': s.body.length };
  if (s.lastModified) headers['last-modified'] = s.lastModified;
  if (s.conditional !== false && req.headers['if-none-match'] === s.etag) {
    res.writeHead(304, { etag: s.etag }).end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': url.endsWith('.zip') ? 'application/zip' : 'text/csv' });
  if (s.cutShort) res.write(s.body.subarray(0, s.body.length >> 1), () => res.destroy());
  else res.end(s.body);
});

let t: TestApp;
let staff: Agent;
let base = '';

/** Serves the IRS's files of the first release. */
function serveFirstRelease() {
  served.set(PATHS.eo1, {
    body: Buffer.from(EO1.text),
    lastModified: 'Mon, 13 Apr 2026 14:05:00 GMT',
    etag: '"eo1-a"',
  });
  served.set(PATHS.eo4, {
    body: Buffer.from(EO4.text),
    lastModified: 'Mon, 13 Apr 2026 14:06:00 GMT',
    etag: '"eo4-a"',
  });
  // 22:30 on 6 October in Washington: the IRS's release date is the 6th, not the UTC 7th.
  served.set(PATHS.epostcard, {
    body: zipOf({ 'data-download-epostcard.txt': fixture('epostcard-2026-10.txt') }),
    lastModified: 'Wed, 07 Oct 2026 02:30:00 GMT',
    etag: '"epostcard-a"',
  });
  served.set(PATHS.revocations, {
    body: zipOf({ 'data-download-revocationExemptions.txt': fixture('revocations-2026-10.txt') }),
    lastModified: 'Wed, 14 Oct 2026 16:00:00 GMT',
    etag: '"revocations-a"',
  });
  served.set(PATHS.pub78, {
    body: zipOf({ 'data-download-pub78.txt': fixture('pub78-2026-11.txt') }),
    lastModified: 'Tue, 10 Nov 2026 15:00:00 GMT',
    etag: '"pub78-a"',
  });
}

/** Runs the job as staff do (Admin → Jobs, "Run now") and answers the recorded run. */
async function runNow() {
  const res = await staff.call(adminJobContracts.run, { params: { name: 'irs-data-refresh' } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().run as {
    result: string;
    items_done: number;
    error: string | null;
    summary: Record<string, unknown> | null;
  };
}

/** What a failed download must leave as it was: the releases and every row they loaded. */
async function loadedState() {
  const db = t.database.db;
  const releases = await db
    .select({
      id: irsReleases.id,
      fileName: irsReleases.fileName,
      releasedOn: irsReleases.releasedOn,
      sha256: irsReleases.sha256,
    })
    .from(irsReleases)
    .orderBy(asc(irsReleases.id));
  const n = async (table: typeof irsEpostcards | typeof irsRevocations | typeof irsPub78) =>
    (await db.select({ n: count() }).from(table))[0].n;
  return {
    releases,
    epostcards: await n(irsEpostcards),
    revocations: await n(irsRevocations),
    pub78: await n(irsPub78),
    organizations: (await db.select({ n: count() }).from(irsOrganizations))[0].n,
    accounts: (await db.select({ n: count() }).from(accounts))[0].n,
  };
}

async function profileOf(ein: string) {
  const [a] = await t.database.db.select({ id: accounts.id }).from(accounts).where(eq(accounts.ein, ein));
  const res = await t.app.inject({ method: 'GET', url: `/api/accounts/${a.id}/public` });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const DATASET_KEYS: Record<string, string> = {
  'EO Business Master File extract': 'bmf',
  'Form 990-N (e-Postcard) data': 'epostcard',
  'Automatic Revocation List': 'revocations',
  'Publication 78 data': 'pub78',
};

/**
 * The releases the instant check (GET /api/irs/organizations/{ein}, docs/irs-standing.md "Instant
 * check") cites for an organization of the IRS data, by data set.
 */
async function citedFor(ein: string): Promise<Record<string, string>> {
  const res = await t.app.inject({ method: 'GET', url: `/api/irs/organizations/${ein}` });
  expect(res.statusCode, res.body).toBe(200);
  const { sources } = res.json() as { sources: { dataset: string; released_on: string }[] };
  return Object.fromEntries(sources.map((s) => [DATASET_KEYS[s.dataset] ?? s.dataset, s.released_on]));
}

const downloadFolders = () => fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('goodstanding-irs-download-'));

beforeAll(async () => {
  await new Promise<void>((r) => peer.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(peer.address() as AddressInfo).port}`;
  t = await createTestApp({
    config: {
      irsDownload: {
        enabled: true,
        sources: [
          { dataset: 'bmf', url: `${base}${PATHS.eo1}` },
          { dataset: 'bmf', url: `${base}${PATHS.eo4}` },
          { dataset: 'epostcard', url: `${base}${PATHS.epostcard}` },
          { dataset: 'revocations', url: `${base}${PATHS.revocations}` },
          { dataset: 'pub78', url: `${base}${PATHS.pub78}` },
        ],
        timeoutMs: 500,
        retries: 1,
        retryDelayMs: 0,
        maxBytes: MB,
      },
    },
  });
  await createUser(t.database.db, { ...STAFF, isAdmin: true });
  // An organization of the revocation list, known to the product before the IRS data arrives.
  await t.database.db.insert(accounts).values({
    name: 'Test Revoked Boosters Inc',
    ein: '990000004',
    irsStatus: '01',
    filingRequirement: '02',
    fiscalYearEndMonth: 12,
    taxPeriod: '201912',
    isListed: true,
  });
  staff = await signedIn(t.app, STAFF);
});
afterAll(async () => {
  await t?.close();
  peer.closeAllConnections();
  await new Promise<void>((r) => peer.close(() => r()));
});

describe('the IRS data refresh downloads the IRS files', () => {
  it('downloads, unzips and loads each file as a release dated by its Last-Modified, oldest first', async () => {
    serveFirstRelease();
    const before = downloadFolders();
    const run = await runNow();
    expect(run.error).toBeNull();
    expect(run).toMatchObject({ result: 'ok', items_done: 5 });
    expect(run.summary).toMatchObject({
      imported: [
        {
          file: 'eo1.csv',
          dataset: 'bmf',
          releasedOn: '2026-04-13',
          rows: EO1.eins.length,
          url: `${base}${PATHS.eo1}`,
        },
        { file: 'eo4.csv', dataset: 'bmf', releasedOn: '2026-04-13', rows: EO4.eins.length },
        { file: 'data-download-epostcard.txt', dataset: 'epostcard', releasedOn: '2026-10-06', rows: 3 },
        { file: 'data-download-revocationExemptions.txt', dataset: 'revocations', releasedOn: '2026-10-14', rows: 2 },
        { file: 'data-download-pub78.txt', dataset: 'pub78', releasedOn: '2026-11-10', rows: 3 },
      ],
      alreadyImported: 0,
      notModified: [],
    });
    // The downloads lived in a temporary folder of their own, gone after the run.
    expect(downloadFolders()).toEqual(before);

    // The instant check cites the IRS's dates for a real organization of the BMF extract ...
    expect(await citedFor(EO1.eins[0])).toEqual({
      bmf: '2026-04-13',
      epostcard: '2026-10-06',
      revocations: '2026-10-14',
      pub78: '2026-11-10',
    });
    // ... and an organization on the revocation list shows as revoked.
    expect(await profileOf('990000004')).toMatchObject({ standing: 'revoked', irs: { revoked_on: '2026-05-15' } });

    const releases = await t.database.db.select().from(irsReleases).orderBy(asc(irsReleases.id));
    expect(releases.map((r) => [r.dataset, r.fileName, r.releasedOn, r.rowCount, r.sourceUrl, r.sourceEtag])).toEqual([
      ['bmf', 'eo1.csv', '2026-04-13', EO1.eins.length, `${base}${PATHS.eo1}`, '"eo1-a"'],
      ['bmf', 'eo4.csv', '2026-04-13', EO4.eins.length, `${base}${PATHS.eo4}`, '"eo4-a"'],
      ['epostcard', 'data-download-epostcard.txt', '2026-10-06', 4, `${base}${PATHS.epostcard}`, '"epostcard-a"'],
      [
        'revocations',
        'data-download-revocationExemptions.txt',
        '2026-10-14',
        2,
        `${base}${PATHS.revocations}`,
        '"revocations-a"',
      ],
      ['pub78', 'data-download-pub78.txt', '2026-11-10', 5, `${base}${PATHS.pub78}`, '"pub78-a"'],
    ]);
    expect(releases[2].sourceLastModified?.toISOString()).toBe('2026-10-07T02:30:00.000Z');
    // Every BMF row is kept as an IRS organization, marked with the release it came from.
    const organizations = await t.database.db
      .select({ ein: irsOrganizations.ein, releaseId: irsOrganizations.releaseId })
      .from(irsOrganizations)
      .where(inArray(irsOrganizations.ein, [...EO1.eins, ...EO4.eins]));
    expect(organizations).toHaveLength(EO1.eins.length + EO4.eins.length);
    expect(organizations.find((o) => o.ein === EO1.eins[0])?.releaseId).toBe(releases[0].id);
    expect(organizations.find((o) => o.ein === EO4.eins[0])?.releaseId).toBe(releases[1].id);
  });

  it('asks again only "if changed": a second run gets 304s and loads nothing', async () => {
    const state = await loadedState();
    requests.length = 0;
    const run = await runNow();
    expect(run).toMatchObject({
      result: 'ok',
      items_done: 0,
      summary: { imported: [], alreadyImported: 0, notModified: Object.values(PATHS).map((p) => `${base}${p}`) },
    });
    expect(requests.map((r) => [r.path, r.ifNoneMatch, r.ifModifiedSince])).toEqual([
      [PATHS.eo1, '"eo1-a"', 'Mon, 13 Apr 2026 14:05:00 GMT'],
      [PATHS.eo4, '"eo4-a"', 'Mon, 13 Apr 2026 14:06:00 GMT'],
      [PATHS.epostcard, '"epostcard-a"', 'Wed, 07 Oct 2026 02:30:00 GMT'],
      [PATHS.revocations, '"revocations-a"', 'Wed, 14 Oct 2026 16:00:00 GMT'],
      [PATHS.pub78, '"pub78-a"', 'Tue, 10 Nov 2026 15:00:00 GMT'],
    ]);
    expect(await loadedState()).toEqual(state);
  });

  it('knows a file sent again whole by its checksum, and keeps its new validators for next time', async () => {
    const state = await loadedState();
    // A server that ignores the conditional headers and sends the same bytes under a new ETag.
    for (const [key, p] of Object.entries(PATHS)) {
      const s = served.get(p);
      if (s) served.set(p, { ...s, etag: `"${key}-b"`, conditional: false });
    }
    const run = await runNow();
    expect(run).toMatchObject({ result: 'ok', items_done: 0, summary: { imported: [], alreadyImported: 5 } });
    expect(await loadedState()).toEqual(state);

    for (const p of Object.values(PATHS)) served.set(p, { ...(served.get(p) as Served), conditional: true });
    requests.length = 0;
    expect(await runNow()).toMatchObject({ result: 'ok', items_done: 0 });
    expect(requests.map((r) => r.ifNoneMatch)).toEqual([
      '"eo1-b"',
      '"eo4-b"',
      '"epostcard-b"',
      '"revocations-b"',
      '"pub78-b"',
    ]);
  });

  it('loads a new release of one data set and leaves the others as they are', async () => {
    served.set(PATHS.pub78, {
      body: zipOf({ 'data-download-pub78.txt': fixture('pub78-2026-12.txt') }),
      lastModified: 'Mon, 14 Dec 2026 13:00:00 GMT',
      etag: '"pub78-c"',
    });
    const run = await runNow();
    expect(run).toMatchObject({
      result: 'ok',
      items_done: 1,
      summary: {
        imported: [{ file: 'data-download-pub78.txt', dataset: 'pub78', releasedOn: '2026-12-14', rows: 2 }],
        notModified: [PATHS.eo1, PATHS.eo4, PATHS.epostcard, PATHS.revocations].map((p) => `${base}${p}`),
      },
    });
    expect(await citedFor(EO1.eins[0])).toMatchObject({ bmf: '2026-04-13', pub78: '2026-12-14' });
  });

  it('tries again after a 503, politely (Retry-After), and takes the file on the second try', async () => {
    const s = served.get(PATHS.revocations) as Served;
    served.set(PATHS.revocations, {
      ...s,
      body: zipOf({
        'data-download-revocationExemptions.txt': Buffer.concat([
          fixture('revocations-2026-10.txt'),
          Buffer.from(
            '990000006|TEST LATE REVOKED BOOSTERS INC||1 MAIN ST|ANYTOWN|OK|73501|US|03|15-MAY-2026|12-NOV-2026|\n',
          ),
        ]),
      }),
      lastModified: 'Thu, 12 Nov 2026 16:00:00 GMT',
      etag: '"revocations-c"',
      status: 503,
      times: 1,
    });
    requests.length = 0;
    const run = await runNow();
    expect(run).toMatchObject({
      result: 'ok',
      items_done: 1,
      summary: { imported: [{ dataset: 'revocations', releasedOn: '2026-11-12', rows: 3 }] },
    });
    expect(requests.filter((r) => r.path === PATHS.revocations)).toHaveLength(2);
  });
});

describe('a download that fails fails the run with its reason, and the releases loaded stay', () => {
  const revocationsZip = (name: string) => zipOf({ [name]: fixture('revocations-2026-10.txt') });
  const big = Buffer.from(
    fixture('revocations-2026-10.txt')
      .toString()
      .repeat(Math.ceil((3 * MB) / 221)),
  );

  const cases: [string, keyof typeof PATHS, Partial<Served>, RegExp][] = [
    [
      'an error page instead of the zip',
      'epostcard',
      { body: Buffer.from('<html><body>Service unavailable</body></html>') },
      /^Nothing new was loaded; 1 of 5 IRS downloads failed, and the releases loaded before stay: Form 990-N \(e-Postcard\) data \(http:\/\/127\.0\.0\.1:\d+\/pub\/epostcard\/data-download-epostcard\.zip\): the zip is not a zip file, or is cut short: refused, nothing of it was loaded$/,
    ],
    [
      'a damaged zip',
      'revocations',
      {
        body: (() => {
          const zip = revocationsZip('data-download-revocationExemptions.txt');
          for (let i = 80; i < 100; i++) zip[i] ^= 0xff;
          return zip;
        })(),
      },
      /Automatic Revocation List \(.*\): the zip is damaged.*: refused/,
    ],
    [
      'a zip whose entry leaves its folder (zip slip)',
      'revocations',
      { body: revocationsZip('../data-download-revocationExemptions.txt') },
      /the zip has an entry whose name leaves its folder \("\.\.\/data-download-revocationExemptions\.txt"\): refused/,
    ],
    [
      'a zip with an absolute entry name',
      'revocations',
      { body: revocationsZip('/etc/data-download-revocationExemptions.txt') },
      /the zip has an entry whose name leaves its folder \("\/etc\/data-download-revocationExemptions\.txt"\): refused/,
    ],
    ['a zip with no file', 'pub78', { body: zipOf({}) }, /Publication 78 data \(.*\): the zip holds no file: refused/],
    [
      'a zip with more entries than the IRS puts in it',
      'pub78',
      {
        body: zipOf({
          'data-download-pub78.txt': fixture('pub78-2026-12.txt'),
          'readme.txt': 'another file',
        }),
      },
      /the zip holds 2 entries where the IRS's zip of the Publication 78 data holds 1: refused/,
    ],
    [
      'a zip whose file unzips past the size limit (a zip bomb)',
      'revocations',
      { body: zipOf({ 'data-download-revocationExemptions.txt': big }) },
      /the zip would unzip to 3\.0 MB, more than the 1\.0 MB limit \(IRS_DOWNLOAD_MAX_MB\): refused/,
    ],
    [
      'a download cut short',
      'pub78',
      { body: zipOf({ 'data-download-pub78.txt': fixture('pub78-2026-12.txt') }), cutShort: true },
      /Publication 78 data \(.*\): the download was cut short after \d+ bytes of \d+ .*, after 2 tries$/,
    ],
    [
      'a CSV that arrives whole but was cut short at the source',
      'eo4',
      { body: Buffer.from(EO4.text.slice(0, -40)) },
      /^eo4\.csv \(http:\/\/127\.0\.0\.1:\d+\/pub\/irs-soi\/eo4\.csv, released 2026-12-18\): The file does not end with a line break: it looks cut short/,
    ],
    [
      'a server error',
      'eo1',
      { status: 500 },
      /EO Business Master File extract \(.*eo1\.csv\): the IRS server answered 500 Internal Server Error, after 2 tries$/,
    ],
    ['an address that is gone', 'eo4', { status: 404 }, /the IRS server answered 404 Not Found$/],
    [
      'a server that never answers',
      'epostcard',
      { hang: true },
      /the IRS server sent nothing for 0\.5 s \(IRS_DOWNLOAD_TIMEOUT_MS\), after 2 tries$/,
    ],
    [
      'a file without its release date',
      'pub78',
      { body: zipOf({ 'data-download-pub78.txt': fixture('pub78-2026-12.txt') }), lastModified: undefined },
      /the answer has no Last-Modified date, the only release date the IRS gives its files: nothing was loaded$/,
    ],
  ];

  it.each(cases)('%s', async (_what, key, change, reason) => {
    const p = PATHS[key];
    const kept = served.get(p) as Served;
    served.set(p, {
      ...kept,
      lastModified: 'Fri, 18 Dec 2026 15:00:00 GMT',
      etag: `"${key}-broken"`,
      ...change,
    });
    const state = await loadedState();
    const cited = await citedFor(EO1.eins[0]);
    requests.length = 0;
    try {
      const run = await runNow();
      expect(run).toMatchObject({ result: 'failed', items_done: 0 });
      expect(run.error).toMatch(reason);
      expect(await loadedState()).toEqual(state);
      expect(await citedFor(EO1.eins[0])).toEqual(cited);
      if (change.status === 404) expect(requests.filter((r) => r.path === p)).toHaveLength(1);
    } finally {
      served.set(p, kept);
      peer.closeAllConnections();
    }
  });

  it('loads what did arrive and names what did not', async () => {
    const kept = served.get(PATHS.eo1) as Served;
    served.set(PATHS.eo1, { ...kept, status: 500 });
    served.set(PATHS.epostcard, {
      body: zipOf({
        'data-download-epostcard.txt': Buffer.concat([
          fixture('epostcard-2026-10.txt'),
          Buffer.from('990000004|2026|TEST REVOKED BOOSTERS INC|50000|F|01-01-2026|12-31-2026|||||||||||||||||||\n'),
        ]),
      }),
      lastModified: 'Tue, 05 Jan 2027 15:00:00 GMT',
      etag: '"epostcard-d"',
    });
    try {
      const run = await runNow();
      expect(run.result).toBe('failed');
      expect(run.error).toMatch(
        /^Loaded data-download-epostcard\.txt \(released 2027-01-05\); 1 of 5 IRS downloads failed, and the releases loaded before stay: EO Business Master File extract \(.*\/eo1\.csv\): the IRS server answered 500 Internal Server Error, after 2 tries$/,
      );
      expect(await citedFor(EO1.eins[0])).toMatchObject({ bmf: '2026-04-13', epostcard: '2027-01-05' });
    } finally {
      served.set(PATHS.eo1, kept);
    }
    // Once the IRS server answers again, eo1.csv is found unchanged (304): the run is ok again.
    expect(await runNow()).toMatchObject({ result: 'ok', items_done: 0 });
  });
});
