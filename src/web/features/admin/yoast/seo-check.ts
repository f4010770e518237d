/**
 * The on-page search-optimisation check behind /admin/yoast/show (docs/requirements/product.md "Staff console"): reads a rendered page
 * of the site and reports what a search engine would notice. Pure: takes the page's Document.
 */

export type FindingLevel = 'good' | 'improve' | 'problem';

export interface Finding {
  /** Stable id, e.g. 'title-length'. */
  id: string;
  level: FindingLevel;
  /** One sentence a content editor can act on. */
  text: string;
}

/** Lengths search engines show in full (characters). */
const SEO_LIMITS = {
  title: { min: 30, max: 60 },
  description: { min: 120, max: 160 },
  words: { thin: 150, good: 300 },
} as const;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The page's visible words: the main landmark when there is one, else the body. */
function mainText(doc: Document): string {
  const root = doc.querySelector('main') ?? doc.body;
  if (!root) return '';
  const clone = root.cloneNode(true) as Element;
  clone.querySelectorAll('script, style, noscript, template').forEach((n) => n.remove());
  return (clone.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A link's accessible text: its text, or an image's alt, or aria-label/title. */
function linkName(a: HTMLAnchorElement): string {
  const label = a.getAttribute('aria-label') ?? '';
  const alt = Array.from(a.querySelectorAll('img[alt]'))
    .map((i) => i.getAttribute('alt') ?? '')
    .join(' ');
  return `${label} ${a.textContent ?? ''} ${alt} ${a.getAttribute('title') ?? ''}`.trim();
}

/**
 * Checks one rendered page: the title and meta description lengths, exactly one h1, headings that
 * do not skip a level, images with alt text, links with text (and how many point inside and
 * outside the site), the word count of the main content, and a canonical link to this address.
 * @param doc the page's document after it rendered
 * @param pageUrl the page's absolute address (for the canonical check and telling links apart)
 * @returns the findings, problems first
 */
export function analyzePage(doc: Document, pageUrl: string): Finding[] {
  const findings: Finding[] = [];
  const add = (id: string, level: FindingLevel, text: string) => findings.push({ id, level, text });
  const here = new URL(pageUrl);

  const title = (doc.title ?? '').trim();
  if (!title) add('title-length', 'problem', 'The page has no title.');
  else if (title.length < SEO_LIMITS.title.min)
    add(
      'title-length',
      'improve',
      `The title is short (${title.length} characters): aim for ${SEO_LIMITS.title.min}–${SEO_LIMITS.title.max}.`,
    );
  else if (title.length > SEO_LIMITS.title.max)
    add(
      'title-length',
      'improve',
      `The title is long (${title.length} characters): search results cut it after about ${SEO_LIMITS.title.max}.`,
    );
  else add('title-length', 'good', `The title has a good length (${title.length} characters).`);

  const description = (doc.querySelector('meta[name="description"]')?.getAttribute('content') ?? '').trim();
  if (!description)
    add(
      'meta-description',
      'problem',
      'The page has no meta description: search engines will pick a snippet themselves.',
    );
  else if (description.length < SEO_LIMITS.description.min)
    add(
      'meta-description',
      'improve',
      `The meta description is short (${description.length} characters): aim for ${SEO_LIMITS.description.min}–${SEO_LIMITS.description.max}.`,
    );
  else if (description.length > SEO_LIMITS.description.max)
    add(
      'meta-description',
      'improve',
      `The meta description is long (${description.length} characters): it will be cut after about ${SEO_LIMITS.description.max}.`,
    );
  else add('meta-description', 'good', `The meta description has a good length (${description.length} characters).`);

  const h1s = doc.querySelectorAll('h1');
  if (h1s.length === 1) add('h1', 'good', `The page has one main heading: "${(h1s[0].textContent ?? '').trim()}".`);
  else if (h1s.length === 0) add('h1', 'problem', 'The page has no main heading (h1).');
  else add('h1', 'problem', `The page has ${h1s.length} main headings (h1): keep one.`);

  const levels = Array.from(doc.querySelectorAll('h1, h2, h3, h4, h5, h6')).map((h) => Number(h.tagName[1]));
  const skip = levels.findIndex((lv, i) => i > 0 && lv > levels[i - 1] + 1);
  if (skip > 0)
    add('headings-order', 'improve', `Headings skip a level: an h${levels[skip]} follows an h${levels[skip - 1]}.`);
  else add('headings-order', 'good', 'Headings follow each other in order.');

  const images = Array.from(doc.querySelectorAll('img'));
  const noAlt = images.filter((img) => !img.hasAttribute('alt'));
  if (noAlt.length)
    add(
      'image-alt',
      'problem',
      `${noAlt.length} of ${plural(images.length, 'image', 'images')} ${noAlt.length === 1 ? 'has' : 'have'} no alt text.`,
    );
  else
    add(
      'image-alt',
      'good',
      images.length === 0
        ? 'The page has no images.'
        : images.length === 1
          ? 'The image has alt text.'
          : `All ${images.length} images have alt text.`,
    );

  const links = Array.from(doc.querySelectorAll<HTMLAnchorElement>('a[href]'));
  let internal = 0;
  let external = 0;
  for (const a of links) {
    try {
      const href = a.getAttribute('href');
      if (href === null) continue; // the selector asks for a[href], so never
      const target = new URL(href, here);
      if (!target.protocol.startsWith('http')) continue;
      if (target.origin === here.origin) internal++;
      else external++;
    } catch {
      // An unreadable href is counted nowhere; the empty-text check below still sees the link.
    }
  }
  const unnamed = links.filter((a) => linkName(a) === '');
  if (unnamed.length) add('link-text', 'problem', `${plural(unnamed.length, 'link has', 'links have')} no text.`);
  add(
    'links',
    internal > 0 ? 'good' : 'improve',
    `The page links to ${plural(internal, 'page', 'pages')} of the site and ${plural(external, 'other site', 'other sites')}.${internal > 0 ? '' : ' Link to related pages of the site.'}`,
  );

  const words = mainText(doc)
    .split(' ')
    .filter((w) => /\w/.test(w)).length;
  if (words < SEO_LIMITS.words.thin)
    add(
      'word-count',
      'problem',
      `The main content has ${words} words: thin pages rank poorly; aim for ${SEO_LIMITS.words.good} or more.`,
    );
  else if (words < SEO_LIMITS.words.good)
    add('word-count', 'improve', `The main content has ${words} words: ${SEO_LIMITS.words.good} or more is better.`);
  else add('word-count', 'good', `The main content has ${words} words.`);

  const canonical = doc.querySelector('link[rel="canonical"]')?.getAttribute('href');
  if (!canonical) add('canonical', 'problem', 'The page has no canonical link.');
  else {
    const target = new URL(canonical, here);
    if (target.origin === here.origin && target.pathname === here.pathname)
      add('canonical', 'good', 'The canonical link points to this page.');
    else add('canonical', 'improve', `The canonical link points elsewhere: ${target.toString()}.`);
  }

  const order: Record<FindingLevel, number> = { problem: 0, improve: 1, good: 2 };
  return findings.sort((a, b) => order[a.level] - order[b.level]);
}

/**
 * The `url` parameter of /admin/yoast/show as a path of this site, or null: only a path starting
 * with one '/' is checked (never another site).
 */
export function checkablePath(raw: string | null): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  try {
    const u = new URL(raw, 'http://site.invalid');
    return u.origin === 'http://site.invalid' ? `${u.pathname}${u.search}` : null;
  } catch {
    return null;
  }
}
