import { describe, expect, it } from 'vitest';
import { defaultMailHtml, textToHtml } from './mail-html.ts';
import { defang, defangOtherAddresses, typed, typedAddress, typedBlock } from './mail-words.ts';

/** docs/security.md "Mail carries only our links": what a person typed is shown as typed, never as a link. */

/** Every web address or domain name a mail client would make clickable (scheme, www., or a dotted name). */
const LINKABLE = /[a-z][a-z0-9+.-]*:\/\/|\bwww\.|[a-z0-9-]\.[a-z]{2,}\b/i;

describe('defang', () => {
  it('breaks schemes and the dots of domain names, and keeps decimals and sentences', () => {
    expect(defang('Dispute at https://evil.example/dispute')).toBe('Dispute at hxxps[:]//evil[.]example/dispute');
    expect(defang('HTTP://EVIL.EXAMPLE')).toBe('hxxp[:]//EVIL[.]EXAMPLE');
    expect(defang('ftp://files.evil.example')).toBe('ftp[:]//files[.]evil[.]example');
    expect(defang('www.evil.example and pay@evil.example')).toBe('www[.]evil[.]example and pay@evil[.]example');
    expect(defang('evil\u3002example evil\uFF0Eexample')).toBe('evil[.]example evil[.]example');
    expect(defang('charged $950.00. Call now.')).toBe('charged $950.00. Call now.');
    expect(defang('Lincoln High Boosters, Inc.')).toBe('Lincoln High Boosters, Inc.');
  });
});

describe('typed', () => {
  it("quotes a value on one line, defanged, so its sentence reads as the user's and links nowhere", () => {
    const name = 'customer, your card was charged $950. Dispute at https://evil.example/dispute';
    expect(typed(name)).toBe('“customer, your card was charged $950. Dispute at hxxps[:]//evil[.]example/dispute”');
    expect(typed(name)).not.toMatch(LINKABLE);
  });

  it('cannot close its quotes, break the line or hide characters', () => {
    expect(typed('Boosters” Your card was charged. “x')).toBe("“Boosters' Your card was charged. 'x”");
    expect(typed('a "b" c')).toBe("“a 'b' c”");
    expect(typed('first\n\nSecond paragraph\u2028third')).toBe('“first Second paragraph third”');
    expect(typed('ev\u200Bil.exa\u202Emple')).toBe('“ev il[.]exa mple”');
  });

  it('shows an e-mail address defanged, without quotes', () => {
    expect(typedAddress('Jane@Example.org')).toBe('Jane@Example[.]org');
  });

  it('quotes several lines as a mail quotes another writer', () => {
    expect(typedBlock('Hello,\r\n\r\nsee https://evil.example now')).toBe(
      '> Hello,\n>\n> see hxxps[:]//evil[.]example now',
    );
  });
});

describe('the mail guard and the HTML part', () => {
  const ours = 'https://goodstanding.test/app/payments';

  it('defangs every address that is not one of the mail’s own links, and keeps those whole', () => {
    const text = `Pay here: ${ours}\nOr not: https://evil.example/x, www.evil.example and ${ours}/more`;
    expect(defangOtherAddresses(text, [ours])).toBe(
      `Pay here: ${ours}\nOr not: hxxps[:]//evil[.]example/x, www[.]evil[.]example and hxxps[:]//goodstanding[.]test/app/payments/more`,
    );
  });

  it('links only the listed links, where they stand whole, never an address because it looks like one', () => {
    const html = textToHtml(`See ${ours}.\nAlso https://evil.example/pay and ${ours}/x`, [ours]);
    expect([...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1])).toEqual([ours]);
    expect(html).toContain('Also https://evil.example/pay and');
    expect(defaultMailHtml('Subject', 'https://evil.example')).not.toContain('<a ');
  });
});
