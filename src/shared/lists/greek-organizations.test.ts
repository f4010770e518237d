import { describe, expect, it } from 'vitest';
import { GREEK_NAMES, GREEK_ORGANIZATIONS } from './greek-organizations.ts';

const LETTERS = [
  'Alpha',
  'Beta',
  'Gamma',
  'Delta',
  'Epsilon',
  'Zeta',
  'Eta',
  'Theta',
  'Iota',
  'Kappa',
  'Lambda',
  'Mu',
  'Nu',
  'Xi',
  'Omicron',
  'Pi',
  'Rho',
  'Sigma',
  'Tau',
  'Upsilon',
  'Phi',
  'Chi',
  'Psi',
  'Omega',
];

/** Words allowed after the letters, as in 'Kappa Alpha Order' or 'Phi Mu Alpha Sinfonia'. */
const EXTRA_WORDS = ['Order', 'Society', 'Sinfonia'];

const NPHC = [
  'Alpha Phi Alpha',
  'Alpha Kappa Alpha',
  'Kappa Alpha Psi',
  'Omega Psi Phi',
  'Delta Sigma Theta',
  'Phi Beta Sigma',
  'Zeta Phi Beta',
  'Sigma Gamma Rho',
  'Iota Phi Theta',
];

const NPC = [
  'Alpha Chi Omega',
  'Alpha Delta Pi',
  'Alpha Epsilon Phi',
  'Alpha Gamma Delta',
  'Alpha Omicron Pi',
  'Alpha Phi',
  'Alpha Sigma Alpha',
  'Alpha Sigma Tau',
  'Alpha Xi Delta',
  'Chi Omega',
  'Delta Delta Delta',
  'Delta Gamma',
  'Delta Phi Epsilon',
  'Delta Zeta',
  'Gamma Phi Beta',
  'Kappa Alpha Theta',
  'Kappa Delta',
  'Kappa Kappa Gamma',
  'Phi Mu',
  'Phi Sigma Sigma',
  'Pi Beta Phi',
  'Sigma Delta Tau',
  'Sigma Kappa',
  'Sigma Sigma Sigma',
  'Theta Phi Alpha',
  'Zeta Tau Alpha',
];

const namesIn = (council: string) =>
  Object.entries(GREEK_ORGANIZATIONS)
    .filter(([, c]) => c === council)
    .map(([name]) => name)
    .sort();

describe('greek organizations (docs/requirements/entities.md "greeks")', () => {
  it('has about 250 names', () => {
    expect(GREEK_NAMES.length).toBeGreaterThanOrEqual(230);
    expect(GREEK_NAMES.length).toBeLessThanOrEqual(280);
    expect(GREEK_NAMES.length).toBe(Object.keys(GREEK_ORGANIZATIONS).length);
  });

  it('lists exactly the nine NPHC organizations', () => {
    expect(NPHC).toHaveLength(9);
    expect(namesIn('NPHC')).toEqual([...NPHC].sort());
  });

  it('lists exactly the 26 NPC sororities', () => {
    expect(NPC).toHaveLength(26);
    expect(namesIn('NPC')).toEqual([...NPC].sort());
  });

  it('GREEK_NAMES is sorted and unique, ignoring case', () => {
    const sorted = [...GREEK_NAMES].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' }));
    expect(GREEK_NAMES).toEqual(sorted);
    expect(new Set(GREEK_NAMES.map((n) => n.toLowerCase())).size).toBe(GREEK_NAMES.length);
    expect([...GREEK_NAMES].sort()).toEqual(Object.keys(GREEK_ORGANIZATIONS).sort());
  });

  it('has no near-duplicates that differ only in spacing', () => {
    const squashed = GREEK_NAMES.map((n) => n.toLowerCase().replace(/\s+/g, ''));
    expect(new Set(squashed).size).toBe(GREEK_NAMES.length);
  });

  it('every name is Greek letter words, then optionally a few allowed words', () => {
    const pattern = new RegExp(
      `^(?:${LETTERS.join('|')})(?: (?:${LETTERS.join('|')}))*(?: (?:${EXTRA_WORDS.join('|')}))*$`,
    );
    const bad = GREEK_NAMES.filter((n) => !pattern.test(n));
    expect(bad).toEqual([]);
  });

  it('has no leading, trailing or doubled spaces', () => {
    const bad = GREEK_NAMES.filter((n) => n !== n.trim() || /\s{2,}/.test(n));
    expect(bad).toEqual([]);
  });
});
