import { describe, expect, it } from 'vitest';
import { BYLAW_ANSWERS } from '../../../tests/helpers/bylaws.ts';
import {
  BYLAW_SCHEMAS,
  SCHOOL_CLAUSES,
  type BylawAnswers,
  type BylawVariant,
  type SchoolClause,
} from '../schemas/bylaws.ts';
import {
  buildBylawsDocument,
  bylawsFileName,
  documentText,
  monthName,
  roman,
  SCHOOL_CLAUSE_LABELS,
  type BylawsDocument,
  type Paragraph,
} from './document.ts';

const BRANDS = { brand: 'GoodStanding', shortBrand: 'BoosterBasics' };

/** Form payloads as the three forms send them; the school one starts with no clause ticked and no highlight. */
const RAW: Record<BylawVariant, Record<string, unknown>> = {
  standard: BYLAW_ANSWERS.standard,
  school: { ...BYLAW_ANSWERS.school, is_highlighted: 0, ...Object.fromEntries(SCHOOL_CLAUSES.map((c) => [c, 0])) },
  short: BYLAW_ANSWERS.short,
};

/** Answers as the server stores them: the raw payload run through the variant's shared schema. */
function answers(variant: BylawVariant, overrides: Record<string, unknown> = {}): BylawAnswers {
  return BYLAW_SCHEMAS[variant].parse({ ...RAW[variant], ...overrides }) as BylawAnswers;
}
const build = (variant: BylawVariant, overrides: Record<string, unknown> = {}) =>
  buildBylawsDocument(answers(variant, overrides), BRANDS);

const line = (para: Paragraph) => para.map((r) => r.text).join('');
const titles = (doc: BylawsDocument) => doc.articles.map((a) => a.title);
function article(doc: BylawsDocument, title: string) {
  const found = doc.articles.find((a) => a.title === title);
  if (!found) throw new Error(`no article '${title}' in ${titles(doc).join(', ')}`);
  return found;
}
/** The text of one section, its paragraphs joined by a newline. */
function section(doc: BylawsDocument, articleTitle: string, sectionTitle: string): string {
  const found = article(doc, articleTitle).sections.find((s) => s.title === sectionTitle);
  if (!found) throw new Error(`no section '${sectionTitle}' in article '${articleTitle}'`);
  return found.paragraphs.map(line).join('\n');
}
/** Every paragraph of the document, in order. */
function paragraphs(doc: BylawsDocument): Paragraph[] {
  return [
    doc.title,
    ...doc.preamble,
    ...doc.articles.flatMap((a) => a.sections.flatMap((s) => s.paragraphs)),
    ...doc.certification,
  ];
}
/** The distinct texts marked as answers. */
const answerTexts = (doc: BylawsDocument) =>
  new Set(
    paragraphs(doc)
      .flat()
      .filter((r) => r.answer)
      .map((r) => r.text),
  );
/** The answer texts of one article. */
const articleAnswers = (doc: BylawsDocument, title: string) =>
  new Set(
    article(doc, title)
      .sections.flatMap((s) => s.paragraphs.flat())
      .filter((r) => r.answer)
      .map((r) => r.text),
  );
const articleText = (doc: BylawsDocument, title: string) =>
  article(doc, title)
    .sections.flatMap((s) => s.paragraphs.map(line))
    .join('\n');

const BASE_TITLES = [
  'Name',
  'Purposes',
  'Membership',
  'Meetings of Members',
  'Officers',
  'Executive Board',
  'Finances',
  'Amendments',
  'Dissolution',
];
const withSchool = (...extra: string[]) => [
  ...BASE_TITLES.slice(0, 7),
  'Relationship with the School',
  ...extra,
  'Amendments',
  'Dissolution',
];

/** The article each school clause adds, in SCHOOL_CLAUSES order. */
const CLAUSE_TITLES: Record<SchoolClause, string> = {
  is_organization_approval_required: 'School Approval of the Organization',
  is_bylaws_approval_required: 'School Approval of the Bylaws',
  is_officers_required: 'Required Officers',
  is_incorporation_required: 'Incorporation',
  is_501c3_required: 'Federal Tax Exemption',
  is_principal_nonvoting_board_member_required: 'School Representative on the Board',
  is_monthly_financial_reports_required: 'Monthly Financial Reports',
  is_officers_registered_volunteers_required: 'Officers as Registered Volunteers',
  is_no_compensation_of_school_employees: 'No Compensation of School Employees',
  is_no_handling_of_funds_by_school_employees: 'Handling of Funds',
};
/** One sentence of each clause article, as the bylaws read with the official 'Activities Director'. */
const CLAUSE_SENTENCES: Record<SchoolClause, string> = {
  is_organization_approval_required: 'until the Activities Director has approved the Organization in writing.',
  is_bylaws_approval_required: 'take effect only after the Activities Director has approved them in writing.',
  is_officers_required:
    'the Secretary shall give the Activities Director the names and contact information of all officers.',
  is_incorporation_required:
    'shall be incorporated as a nonprofit corporation under the laws of the state in which Kenai Central High School is located',
  is_501c3_required:
    'shall give the Activities Director a copy of the determination letter and of each return on request.',
  is_principal_nonvoting_board_member_required:
    'The Activities Director, or a person the Activities Director designates in writing, is a member of the Executive Board without a vote',
  is_monthly_financial_reports_required: 'shall give it to the Executive Board and to the Activities Director.',
  is_officers_registered_volunteers_required:
    'Every officer shall be a registered volunteer of Kenai Central High School or its school district',
  is_no_compensation_of_school_employees: 'to any employee of Kenai Central High School or its school district',
  is_no_handling_of_funds_by_school_employees:
    'No employee of Kenai Central High School or its school district shall collect, hold, deposit, withdraw or sign for the funds',
};
/** Clauses whose article names the school official (the others name the school). */
const CLAUSES_NAMING_OFFICIAL: readonly SchoolClause[] = SCHOOL_CLAUSES.filter(
  (c) => c !== 'is_officers_registered_volunteers_required' && c !== 'is_no_handling_of_funds_by_school_employees',
);

describe('helpers: roman numerals and 0-based month names', () => {
  it('roman()', () => {
    expect([1, 2, 3, 4, 5, 9, 10, 14, 19, 20, 39].map(roman)).toEqual([
      'I',
      'II',
      'III',
      'IV',
      'V',
      'IX',
      'X',
      'XIV',
      'XIX',
      'XX',
      'XXXIX',
    ]);
  });
  it('monthName() takes the 0-based index of the bylaws month list and wraps around the year', () => {
    expect(monthName(0)).toBe('January');
    expect(monthName(5)).toBe('June');
    expect(monthName(11)).toBe('December');
    expect(monthName(12)).toBe('January');
    expect(monthName(16)).toBe('May');
    expect(monthName(-1)).toBe('December');
  });
  it('every school clause has a form label', () => {
    expect(Object.keys(SCHOOL_CLAUSE_LABELS).sort()).toEqual([...SCHOOL_CLAUSES].sort());
    for (const c of SCHOOL_CLAUSES) expect(SCHOOL_CLAUSE_LABELS[c].length, c).toBeGreaterThan(10);
  });
});

describe('standard variant', () => {
  const doc = build('standard');

  it('has the nine articles, numbered from 1, and the title and preamble name the organization', () => {
    expect(doc.variant).toBe('standard');
    expect(titles(doc)).toEqual(BASE_TITLES);
    expect(doc.articles.map((a) => a.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(doc.title).toEqual([{ text: 'Bylaws of ' }, { text: 'Soldotna Track Boosters', answer: true }]);
    expect(line(doc.preamble[0]!)).toBe(
      'These bylaws govern the affairs of Soldotna Track Boosters, a nonprofit organization.',
    );
  });

  it('marks exactly the answers: name, purpose, facility, minimums and months', () => {
    expect(answerTexts(doc)).toEqual(
      new Set([
        'Soldotna Track Boosters',
        'To buy equipment and pay travel costs for the Soldotna High School track and field teams.',
        'Soldotna High School',
        'fifteen (15) voting members',
        'one-fourth (1/4) of the voting members',
        'April', // annual_meeting_month 3
        'March', // nomination_month 2
        'July',
        'June',
        'November', // fiscal year July-June, Form 990 due in November
      ]),
    );
  });

  it('names the organization, the supported facility and the specific purpose', () => {
    expect(section(doc, 'Name', 'Name')).toBe(
      'The name of this organization is Soldotna Track Boosters (the “Organization”).',
    );
    expect(section(doc, 'Name', 'Organization Supported')).toBe(
      'The Organization is organized to support Soldotna High School and the students and people it serves. The Organization is a separate, independent organization and is not an agency of Soldotna High School.',
    );
    expect(section(doc, 'Purposes', 'Specific Purpose')).toBe(
      'Within those purposes, the specific purpose of the Organization is: To buy equipment and pay travel costs for the Soldotna High School track and field teams.',
    );
  });

  it('meeting and nomination months come from the 0-based answers', () => {
    expect(section(doc, 'Meetings of Members', 'Annual Meeting')).toBe(
      'The annual meeting of the members shall be held in April of each year. Officers are elected at the annual meeting.',
    );
    expect(section(doc, 'Officers', 'Nominations')).toMatch(/^Nominations for office open in March of each year\./);
    expect(section(doc, 'Officers', 'Election and Term')).toContain('at the annual meeting in April by a majority');
  });

  it('is not a school document unless is_school is 1; then it adds the school article', () => {
    expect(documentText(doc)).not.toContain('Relationship with the School');
    const school = build('standard', { is_school: 1 });
    expect(titles(school)).toEqual(withSchool());
    expect(section(school, 'Name', 'Organization Supported')).toContain(
      'to support Soldotna High School, a school, and the students',
    );
    expect(section(school, 'Relationship with the School', 'Cooperation')).toBe(
      'The Organization works in cooperation with Soldotna High School and follows the policies of its school district when it acts on school property or at school events. The Organization is responsible for its own debts, contracts, insurance and filings.',
    );
    // The clause articles belong to the school variant only.
    expect(build('standard', { is_school: 1, is_501c3_required: 1 }).articles).toHaveLength(10);
  });

  it('documentText() writes articles in Roman numerals with numbered sections', () => {
    const text = documentText(doc).split('\n');
    expect(text[0]).toBe('Bylaws of Soldotna Track Boosters');
    expect(text).toContain('Article I. Name');
    expect(text).toContain('Article IV. Meetings of Members');
    expect(text).toContain('Article IX. Dissolution');
    expect(text).toContain('Section 5. Quorum.');
    expect(text).toContain('Certificate of adoption');
    expect(text.at(-1)).toBe(doc.footer);
  });
});

describe('school variant: the ten clauses', () => {
  it('with no clause ticked: the school article only, naming the official', () => {
    const doc = build('school');
    expect(doc.variant).toBe('school');
    expect(titles(doc)).toEqual(withSchool());
    expect(section(doc, 'Relationship with the School', 'Cooperation')).toBe(
      'The Organization works in cooperation with Kenai Central High School and its administration. The Activities Director is the school official through whom the Organization deals with Kenai Central High School.',
    );
    expect(articleAnswers(doc, 'Relationship with the School')).toEqual(
      new Set(['Kenai Central High School', 'Activities Director']),
    );
    for (const title of Object.values(CLAUSE_TITLES)) expect(titles(doc)).not.toContain(title);
  });

  it('without an official title (allowed when no clause is ticked) the bylaws say "principal", not as an answer', () => {
    const doc = build('school', { school_official_title: '' });
    expect(section(doc, 'Relationship with the School', 'Cooperation')).toContain(
      'The principal is the school official',
    );
    expect(articleAnswers(doc, 'Relationship with the School')).toEqual(new Set(['Kenai Central High School']));
  });

  for (const clause of SCHOOL_CLAUSES) {
    it(`${clause} adds exactly one article, "${CLAUSE_TITLES[clause]}", only when ticked`, () => {
      const off = build('school');
      const on = build('school', { [clause]: 1 });
      expect(on.articles).toHaveLength(off.articles.length + 1);
      expect(titles(on)).toEqual(withSchool(CLAUSE_TITLES[clause]));
      expect(titles(off)).not.toContain(CLAUSE_TITLES[clause]);
      const text = articleText(on, CLAUSE_TITLES[clause]);
      expect(text).toContain(CLAUSE_SENTENCES[clause]);
      expect(documentText(off)).not.toContain(CLAUSE_SENTENCES[clause]);
      // The official title and the school are answer runs inside the clause.
      const marked = articleAnswers(on, CLAUSE_TITLES[clause]);
      if (CLAUSES_NAMING_OFFICIAL.includes(clause)) {
        expect(text).toContain('Activities Director');
        expect(marked.has('Activities Director')).toBe(true);
      } else {
        expect(marked).toEqual(new Set(['Kenai Central High School']));
      }
    });
  }

  it('all ten ticked: ten clause articles in form order, after the school article, before Amendments', () => {
    const doc = build('school', Object.fromEntries(SCHOOL_CLAUSES.map((c) => [c, 1])));
    expect(titles(doc)).toEqual(withSchool(...SCHOOL_CLAUSES.map((c) => CLAUSE_TITLES[c])));
    expect(doc.articles.map((a) => a.number)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(documentText(doc)).toContain('Article XX. Dissolution');
    const text = documentText(doc);
    for (const clause of SCHOOL_CLAUSES) expect(text, clause).toContain(CLAUSE_SENTENCES[clause]);
  });

  it('a different official title is the one written into the clauses', () => {
    const doc = build('school', {
      school_official_title: 'Principal of Kenai Central',
      is_bylaws_approval_required: 1,
    });
    expect(articleText(doc, 'School Approval of the Bylaws')).toContain(
      'take effect only after the Principal of Kenai Central has approved them in writing.',
    );
    expect(documentText(doc)).not.toContain('Activities Director');
  });
});

describe('short variant', () => {
  const doc = build('short');

  it('has the nine articles without a facility, with fixed meeting rules', () => {
    expect(doc.variant).toBe('short');
    expect(titles(doc)).toEqual(BASE_TITLES);
    expect(article(doc, 'Name').sections.map((s) => s.title)).toEqual(['Name']);
    expect(section(doc, 'Meetings of Members', 'Annual Meeting')).toBe(
      'The annual meeting of the members, at which officers are elected, shall be held during the last three months of the fiscal year.',
    );
    expect(section(doc, 'Officers', 'Nominations')).toBe(
      'Nominations for office open two months before the annual meeting.',
    );
  });

  it('marks exactly the answers it asks for: name, purpose and the fiscal year', () => {
    expect(answerTexts(doc)).toEqual(
      new Set([
        'Riverside PTO',
        'To provide classroom supplies and field trips for the students of Riverside Elementary School.',
        'January',
        'December',
        'May',
      ]),
    );
  });

  it('uses the 1/10 defaults for quorum and special meetings, not marked as answers', () => {
    expect(section(doc, 'Meetings of Members', 'Quorum')).toContain(
      'A quorum for the transaction of business at any meeting of the members is ten percent (10%) of the voting members in good standing',
    );
    expect(section(doc, 'Meetings of Members', 'Special Meetings')).toContain(
      'upon the written request of one-tenth (1/10) of the voting members delivered to the Secretary',
    );
  });
});

describe('fiscal year and Form 990 month (0-based months)', () => {
  const finances = (fye: string) => {
    const doc = build('standard', { fiscal_year_end: fye });
    return { year: section(doc, 'Finances', 'Fiscal Year'), filing: section(doc, 'Finances', 'Annual Filings') };
  };

  it('5 is June: the year begins in July, the return is due in November', () => {
    const { year, filing } = finances('5');
    expect(year).toBe(
      'The fiscal year of the Organization begins on the first day of July and ends on the last day of June of each year.',
    );
    expect(filing).toContain('by the fifteenth day of November, the fifth month after the end of the fiscal year');
  });

  it('11 is December: the year begins in January, the return is due in May', () => {
    const { year, filing } = finances('11');
    expect(year).toBe(
      'The fiscal year of the Organization begins on the first day of January and ends on the last day of December of each year.',
    );
    expect(filing).toContain('by the fifteenth day of May, the fifth month');
  });

  it('0 is January: the year begins in February, the return is due in June', () => {
    const { year, filing } = finances('0');
    expect(year).toBe(
      'The fiscal year of the Organization begins on the first day of February and ends on the last day of January of each year.',
    );
    expect(filing).toContain('by the fifteenth day of June, the fifth month');
  });

  it('for every month, the filing month is five months after the year end', () => {
    const names = [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ];
    for (let m = 0; m < 12; m++) {
      const { year, filing } = finances(String(m));
      expect(year, `month ${m}`).toContain(`ends on the last day of ${names[m]} of each year`);
      expect(year, `month ${m}`).toContain(`begins on the first day of ${names[(m + 1) % 12]} and`);
      expect(filing, `month ${m}`).toContain(`by the fifteenth day of ${names[(m + 5) % 12]}, the fifth month`);
    }
  });

  it('the school variant reads its own fiscal year end (6 is July)', () => {
    const doc = build('school');
    expect(section(doc, 'Finances', 'Fiscal Year')).toBe(
      'The fiscal year of the Organization begins on the first day of August and ends on the last day of July of each year.',
    );
    expect(section(doc, 'Finances', 'Annual Filings')).toContain('by the fifteenth day of December, the fifth month');
  });
});

describe('quorum and special-meeting wording comes from the minimums', () => {
  const wording = (attendee: string, request: string) => {
    const doc = build('standard', { meeting_attendee_minimum: attendee, meeting_request_minimum: request });
    return {
      quorum: section(doc, 'Meetings of Members', 'Quorum'),
      special: section(doc, 'Meetings of Members', 'Special Meetings'),
      doc,
    };
  };

  it('a count and a fraction', () => {
    const { quorum, special, doc } = wording('15', '1/4');
    expect(quorum).toBe(
      'A quorum for the transaction of business at any meeting of the members is fifteen (15) voting members in good standing, present in person or by a video or telephone connection through which all participants can hear one another.',
    );
    expect(special).toContain(
      'upon the written request of one-fourth (1/4) of the voting members delivered to the Secretary.',
    );
    expect(articleAnswers(doc, 'Meetings of Members')).toEqual(
      new Set(['fifteen (15) voting members', 'one-fourth (1/4) of the voting members', 'April']),
    );
  });

  it('a percentage and the smallest fraction', () => {
    const { quorum, special } = wording('20%', '1/10');
    expect(quorum).toContain('of the members is 20% of the voting members in good standing');
    expect(special).toContain('upon the written request of one-tenth (1/10) of the voting members delivered');
  });

  it('one member, all members, and an uncommon fraction', () => {
    expect(wording('1', '3/3').quorum).toContain('of the members is one (1) voting member in good standing');
    expect(wording('1', '3/3').special).toContain('upon the written request of all of the voting members delivered');
    expect(wording('2/20', '3/10').quorum).toContain('of the members is 2/20 of the voting members in good standing');
  });

  it('the school variant words its own minimums', () => {
    const doc = build('school');
    expect(section(doc, 'Meetings of Members', 'Quorum')).toContain(
      'of the members is 20% of the voting members in good standing',
    );
    expect(section(doc, 'Meetings of Members', 'Special Meetings')).toContain(
      'upon the written request of one-tenth (1/10) of the voting members',
    );
  });

  it('an unreadable stored minimum falls back to the 1/10 defaults rather than printing it', () => {
    const raw = { ...answers('standard'), meeting_attendee_minimum: 'half', meeting_request_minimum: '1/20' };
    const doc = buildBylawsDocument(raw, BRANDS);
    expect(section(doc, 'Meetings of Members', 'Quorum')).toContain(
      'of the members is ten percent (10%) of the voting members in good standing',
    );
    expect(section(doc, 'Meetings of Members', 'Special Meetings')).toContain(
      'upon the written request of one-tenth (1/10) of the voting members',
    );
    expect(documentText(doc)).not.toMatch(/\bhalf\b|1\/20/);
  });
});

describe('501(c)(3) language in every variant', () => {
  for (const variant of ['standard', 'school', 'short'] as const) {
    it(`${variant}: exclusive exempt purposes, limitations and dissolution to exempt purposes`, () => {
      const doc = build(variant);
      expect(section(doc, 'Purposes', 'Charitable and Educational Purposes')).toContain(
        'organized and shall be operated exclusively for charitable and educational purposes within the meaning of section 501(c)(3) of the Internal Revenue Code',
      );
      const limits = section(doc, 'Purposes', 'Limitations');
      expect(limits).toContain('No part of the net earnings of the Organization shall inure to the benefit of');
      expect(limits).toContain('shall not participate in or intervene in');
      expect(limits).toContain(
        'any political campaign on behalf of or in opposition to any candidate for public office',
      );
      expect(limits).toContain(
        'the Organization shall not carry on any activity not permitted to be carried on by an organization exempt from federal income tax under section 501(c)(3) of the Code, or by an organization contributions to which are deductible under section 170(c)(2) of the Code.',
      );
      const assets = section(doc, 'Dissolution', 'Distribution of Assets');
      expect(assets).toContain(
        'the Organization shall distribute its remaining assets for one or more exempt purposes within the meaning of section 501(c)(3) of the Code',
      );
      expect(assets).toContain(
        'or to the federal government or a state or local government for a public purpose. No assets shall be distributed to any member, officer or private person.',
      );
      expect(section(doc, 'Amendments', 'Amendment of Bylaws')).toContain(
        'No amendment may change the purposes of the Organization in a way that would cause it to lose its exemption under section 501(c)(3) of the Code.',
      );
    });
  }

  it('the facility may receive the assets only if it is itself exempt or governmental', () => {
    expect(section(build('standard'), 'Dissolution', 'Distribution of Assets')).toContain(
      ', which may include Soldotna High School if it is a governmental unit or an organization exempt under section 501(c)(3),',
    );
    expect(section(build('short'), 'Dissolution', 'Distribution of Assets')).not.toContain('which may include');
  });
});

describe('highlighting', () => {
  it('is_highlighted sets model.highlighted; answer runs are marked either way', () => {
    for (const variant of ['standard', 'school', 'short'] as const) {
      const on = build(variant, { is_highlighted: 1 });
      const off = build(variant, { is_highlighted: 0 });
      expect(on.highlighted, variant).toBe(true);
      expect(off.highlighted, variant).toBe(false);
      // Only the flag differs: the same runs, with the same answer marks.
      expect({ ...off, highlighted: true }, variant).toEqual(on);
      expect(answerTexts(off).size, variant).toBeGreaterThan(4);
      expect(off.title.find((r) => r.answer)?.text, variant).toBe(RAW[variant].name);
    }
  });
});

describe('footer brand', () => {
  it('the short variant names the short brand; the others the main brand', () => {
    const short = build('short').footer;
    expect(short).toBe('Prepared with BoosterBasics. General guidance, not legal advice: review before adopting.');
    expect(short).not.toContain('GoodStanding');
    for (const variant of ['standard', 'school'] as const) {
      const footer = build(variant).footer;
      expect(footer, variant).toBe(
        'Prepared with GoodStanding. General guidance, not legal advice: review before adopting.',
      );
      expect(footer, variant).not.toContain('BoosterBasics');
    }
  });

  it('the brands come from the options, not from constants', () => {
    const doc = buildBylawsDocument(answers('short'), { brand: 'Main Co', shortBrand: 'Tiny Bylaws' });
    expect(doc.footer).toContain('Prepared with Tiny Bylaws.');
    expect(buildBylawsDocument(answers('standard'), { brand: 'Main Co', shortBrand: 'Tiny Bylaws' }).footer).toContain(
      'Prepared with Main Co.',
    );
  });
});

describe('bylawsFileName', () => {
  it('names the file after the organization', () => {
    expect(bylawsFileName('Soldotna Track Boosters')).toBe('Soldotna Track Boosters Bylaws.docx');
    expect(bylawsFileName('  Riverside   PTO ')).toBe('Riverside PTO Bylaws.docx');
  });
  it('strips path separators and characters Windows forbids', () => {
    expect(bylawsFileName('../../etc/passwd')).toBe('.. .. etc passwd Bylaws.docx');
    expect(bylawsFileName('C:\\Users\\x')).toBe('C Users x Bylaws.docx');
    expect(bylawsFileName('A/B:C*D?"E"<F>|G')).toBe('A B C D E F G Bylaws.docx');
    for (const name of ['../../etc/passwd', 'C:\\Users\\x', 'a<b>c'])
      expect(bylawsFileName(name)).not.toMatch(/[\\/:*?"<>|]/);
  });
  it('strips control characters, including newlines that could split a header', () => {
    expect(bylawsFileName('Club\u0000Name\r\nX-Evil: 1')).toBe('Club Name X-Evil 1 Bylaws.docx');
    expect(bylawsFileName('Tab\tClub\u007F')).toBe('Tab Club Bylaws.docx');
  });
  it('normalises look-alike characters before stripping (full-width solidus, ligatures)', () => {
    expect(bylawsFileName('Ａ／Ｂ Boosters')).toBe('A B Boosters Bylaws.docx');
    expect(bylawsFileName('Oﬃce Club')).toBe('Office Club Bylaws.docx');
  });
  it('drops trailing dots and spaces, and falls back when nothing is left', () => {
    expect(bylawsFileName('Boosters Inc.')).toBe('Boosters Inc Bylaws.docx');
    expect(bylawsFileName('///')).toBe('Organization Bylaws.docx');
    expect(bylawsFileName('')).toBe('Organization Bylaws.docx');
    expect(bylawsFileName('...')).toBe('Organization Bylaws.docx');
  });
  it('keeps at most 120 characters of the name', () => {
    const name = bylawsFileName('x'.repeat(300));
    expect(name).toBe(`${'x'.repeat(120)} Bylaws.docx`);
  });
});
