/*
 * Text that a person typed, as a mail repeats it (docs/security.md "Mail carries only our links").
 * A mail may name what a customer or a visitor typed (a name, the account's name, an e-mail
 * address, a message), but never lets it pass for our own words or become a link: it is shown
 * quoted, on one line, with every web address and domain name defanged, so neither our HTML part
 * nor a mail client's own linking can make it clickable.
 *
 * The defanging rule:
 * - `http://` and `https://` become `hxxp[:]//` and `hxxps[:]//`; any other `scheme://` becomes
 *   `scheme[:]//`;
 * - a dot between a letter, digit or hyphen and a letter (every dot of a domain name: `evil.example`,
 *   `www.evil.example`, `name@evil.example`) becomes `[.]`; so do the look-alike dots 。 ． ｡;
 * - control and invisible formatting characters (line breaks, zero-width spaces, right-to-left
 *   overrides) become one space.
 * Decimal numbers ($950.00) and sentences ("Inc. Board") keep their dots.
 */

/** A scheme and its `://`. */
const SCHEME = /\b([a-z][a-z0-9+.-]*):\/\//gi;
/** A dot of a domain name: after a letter, digit or hyphen, before a letter (full stops and their look-alikes). */
const DOMAIN_DOT = /(?<=[\p{L}\p{N}-])[.\u3002\uFF0E\uFF61](?=\p{L})/gu;
/** Characters that break a line or hide themselves: control characters, format characters, line and paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu;
/** Quotation marks that could close our own quotes around typed text. */
const QUOTES = /["\u201C\u201D\u201E\u201F\u00AB\u00BB\u2033]/g;

/**
 * `text` with its web addresses and domain names made unclickable, by the rule above.
 * @returns e.g. 'hxxps[:]//evil[.]example/dispute' for 'https://evil.example/dispute'
 */
export function defang(text: string): string {
  return text
    .replace(SCHEME, (_m, scheme: string) => {
      const lower = scheme.toLowerCase();
      if (lower === 'http' || lower === 'https') return `hxxp${lower.slice(4)}[:]//`;
      return `${scheme}[:]//`;
    })
    .replace(DOMAIN_DOT, '[.]');
}

/** One line of typed text: invisible characters and runs of white space as one space, trimmed. */
const oneLine = (value: string) => value.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();

/**
 * A value a person typed (a name, an organization's name), as a mail shows it: on one line,
 * defanged and between curly quotes, its own double quotes turned into single ones so it cannot
 * close ours. Requirement: docs/security.md "Mail carries only our links".
 * @returns e.g. '“customer, your card was charged $950. Dispute at hxxps[:]//evil[.]example/dispute”'
 */
export function typed(value: string): string {
  return `\u201C${defang(oneLine(value)).replace(QUOTES, "'")}\u201D`;
}

/**
 * An e-mail address a person typed, as a mail shows it: on one line and defanged
 * (`jane@example[.]org`), so no mail client makes it a link. Addresses were checked as addresses
 * when they were saved, so they carry no sentence and need no quotes.
 */
export function typedAddress(email: string): string {
  return defang(oneLine(email));
}

/**
 * Several lines a person typed (a message), as a mail shows them: each line defanged and
 * started with "> ", as mail quotes what another wrote; blank lines kept as ">".
 */
export function typedBlock(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/[\n\u2028\u2029]/)
    .map((line) => {
      const words = defang(line.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim());
      return words ? `> ${words}` : '>';
    })
    .join('\n');
}

/** A web address written out in text: a scheme and `://`, or `www.`, up to white space or <>". */
const ADDRESS = /\b(?:[a-z][a-z0-9+.-]*:\/\/|www\.)[^\s<>"]*/gi;

/**
 * Where each of `links` (a mail's own links, MailToQueue.links) stands in `text`: exact, whole
 * occurrences only (not the start of a longer address, nor the end of one), in order. What the
 * HTML part links and the guard keeps (docs/security.md "Mail carries only our links"). Pure.
 * @returns `[{ start, end, href }]`, `href` the link as listed
 */
export function findLinks(text: string, links: readonly string[]): { start: number; end: number; href: string }[] {
  if (!links.length) return [];
  const escaped = [...new Set(links)]
    .sort((a, b) => b.length - a.length)
    .map((l) => l.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`(?<![\\w/:.%?#&=~+-])(?:${escaped.join('|')})(?![\\w/%?#&=~+-])`, 'g');
  return [...text.matchAll(pattern)].map((m) => ({ start: m.index, end: m.index + m[0].length, href: m[0] }));
}

/**
 * `text` with every web address (a `scheme://` or `www.` one) that is not one of `links` (the
 * mail's own links) defanged: the guard that keeps any address a mail did not put there on
 * purpose (typed by a person, or by staff) from being clickable in the text part or in a mail
 * client (docs/security.md "Mail carries only our links"). Pure; enqueueMail runs it on every
 * subject and text.
 * @returns the text, the listed links untouched
 */
export function defangOtherAddresses(text: string, links: readonly string[]): string {
  let out = '';
  let last = 0;
  for (const link of findLinks(text, links)) {
    out += text.slice(last, link.start).replace(ADDRESS, defang) + link.href;
    last = link.end;
  }
  return out + text.slice(last).replace(ADDRESS, defang);
}
