// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { analyzePage, checkablePath } from './seo-check.ts';

const URL_ = 'https://gs.example/irs-form-990';
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(' ');

function page(head: string, body: string): Document {
  return new DOMParser().parseFromString(
    `<!doctype html><html><head>${head}</head><body>${body}</body></html>`,
    'text/html',
  );
}

const GOOD_HEAD = `<title>IRS Form 990 filing for booster clubs | GoodStanding</title>
  <meta name="description" content="${'Which Form 990 your group files each year, when it is due, and what happens if you miss it. '.repeat(2).slice(0, 140)}">
  <link rel="canonical" href="https://gs.example/irs-form-990">`;

const levelOf = (findings: ReturnType<typeof analyzePage>, id: string) => findings.find((f) => f.id === id)?.level;

describe('analyzePage', () => {
  it('finds nothing to fix on a well-formed page', () => {
    const doc = page(
      GOOD_HEAD,
      `<main><h1>Form 990</h1><h2>Which form</h2><p>${words(320)}</p><img src="a.png" alt="A form"><a href="/pricing">Pricing</a><a href="https://www.irs.gov/">IRS</a></main>`,
    );
    const findings = analyzePage(doc, URL_);
    expect(findings.every((f) => f.level === 'good')).toBe(true);
    expect(findings.find((f) => f.id === 'links')?.text).toBe('The page links to 1 page of the site and 1 other site.');
    expect(findings.find((f) => f.id === 'word-count')?.text).toMatch(/^The main content has 32\d words\.$/);
  });

  it('reports a missing title, description, h1 and canonical as problems, problems first', () => {
    const findings = analyzePage(page('', `<main><p>${words(10)}</p></main>`), URL_);
    expect(
      findings
        .slice(0, 5)
        .map((f) => f.id)
        .sort(),
    ).toEqual(['canonical', 'h1', 'meta-description', 'title-length', 'word-count'].sort());
    expect(findings[0].level).toBe('problem');
  });

  it('flags lengths, two h1s, a skipped heading level, images without alt, links without text', () => {
    const doc = page(
      '<title>Short</title><meta name="description" content="Too short."><link rel="canonical" href="/other">',
      `<main><h1>One</h1><h1>Two</h1><h2>A</h2><h4>Skipped</h4><img src="x.png"><img src="y.png" alt=""><a href="/x"></a><p>${words(200)}</p></main>`,
    );
    const f = analyzePage(doc, URL_);
    expect(levelOf(f, 'title-length')).toBe('improve');
    expect(levelOf(f, 'meta-description')).toBe('improve');
    expect(f.find((x) => x.id === 'h1')?.text).toBe('The page has 2 main headings (h1): keep one.');
    expect(f.find((x) => x.id === 'headings-order')?.text).toBe('Headings skip a level: an h4 follows an h2.');
    expect(f.find((x) => x.id === 'image-alt')?.text).toBe('1 of 2 images has no alt text.');
    expect(f.find((x) => x.id === 'link-text')?.text).toBe('1 link has no text.');
    expect(levelOf(f, 'word-count')).toBe('improve');
    expect(f.find((x) => x.id === 'canonical')?.text).toBe(
      'The canonical link points elsewhere: https://gs.example/other.',
    );
  });
});

describe('checkablePath', () => {
  it('takes only paths of this site', () => {
    expect(checkablePath('/irs-form-990')).toBe('/irs-form-990');
    expect(checkablePath('/pricing?x=1')).toBe('/pricing?x=1');
    for (const bad of [
      null,
      '',
      'https://evil.example/',
      '//evil.example/',
      '/\\evil.example',
      'javascript:alert(1)',
      'pricing',
    ]) {
      expect(checkablePath(bad), String(bad)).toBeNull();
    }
  });
});
