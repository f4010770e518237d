// Longer than 400 lines: the bylaws' own text, article by article with its variants; the words are the
// product, and one file keeps them in the order the document reads.
import { MONTHS } from '../lists/months.ts';
import { must } from '../must.ts';
import { describeMemberMinimum, parseMemberMinimum } from './member-minimum.ts';
import { SCHOOL_CLAUSES, type BylawVariant, type SchoolClause } from './variants.ts';
import type { BylawAnswers } from '../schemas/bylaws.ts';

/**
 * The bylaws document model (docs/requirements/product.md tool 3, docs/requirements/platform.md §1 "the same document model renders an HTML
 * preview"): one structure, written once here, rendered to .docx on the server and to HTML in the
 * browser. Runs that came from the user's answers are marked so both renderers can highlight them.
 */

/** A piece of text; `answer` marks words that came from the user's responses. */
interface Run {
  text: string;
  answer?: boolean;
}
export type Paragraph = Run[];

interface Section {
  /** Shown as 'Section 3. Quorum.' */
  title: string;
  paragraphs: Paragraph[];
}

interface Article {
  /** 1-based; shown in Roman numerals. */
  number: number;
  title: string;
  sections: Section[];
}

export interface BylawsDocument {
  variant: BylawVariant;
  /** 'Bylaws of Soldotna Track Boosters' with the name as an answer run. */
  title: Paragraph;
  /** Highlight answer runs (is_highlighted = 1). */
  highlighted: boolean;
  preamble: Paragraph[];
  articles: Article[];
  /** Certificate of adoption, after the articles. */
  certification: Paragraph[];
  /** The brand the document is published under (the short variant's own brand). */
  brand: string;
  /** Running footer text naming the brand. */
  footer: string;
}

export interface DocumentOptions {
  /** The brand the short variant is published under (config). */
  shortBrand: string;
  /** The brand of the standard and school variants. */
  brand: string;
}

/** Answer run. */
const a = (text: string | number): Run => ({ text: String(text), answer: true });
/** A paragraph from text, answer runs and nested pieces of paragraph; empty strings drop out. */
const p = (...parts: (string | Run | Paragraph)[]): Paragraph =>
  parts.flatMap((x) => (typeof x === 'string' ? (x ? [{ text: x }] : []) : Array.isArray(x) ? x : [x]));

/** Month name of a 0-based month index (docs/requirements/constants.md: the bylaws month list is 0-based). */
export const monthName = (index: number): string => must(MONTHS[(((index % 12) + 12) % 12) + 1], `month ${index}`);

const ROMAN: [number, string][] = [
  [10, 'X'],
  [9, 'IX'],
  [5, 'V'],
  [4, 'IV'],
  [1, 'I'],
];
/** 1 → 'I', 14 → 'XIV' (articles stay below 40). */
export function roman(n: number): string {
  let out = '';
  let rest = n;
  for (const [value, letters] of ROMAN)
    while (rest >= value) {
      out += letters;
      rest -= value;
    }
  return out;
}

const minimum = (text: string | undefined, fallback: string) => {
  const parsed = parseMemberMinimum(text ?? '');
  return parsed.ok ? describeMemberMinimum(parsed.value) : fallback;
};

/** The 990-series due date: the 15th day of the 5th month after the fiscal year ends. */
const filingMonth = (fiscalYearEnd: number) => monthName(fiscalYearEnd + 5);

/** Labels of the school clauses as the school form shows them (docs/requirements/entities.md school variant). */
export const SCHOOL_CLAUSE_LABELS: Record<SchoolClause, string> = {
  is_organization_approval_required: 'The school must approve the organization before it operates',
  is_bylaws_approval_required: 'The school must approve these bylaws and any amendment',
  is_officers_required:
    'The organization must keep a president, a secretary and a treasurer and report them to the school',
  is_incorporation_required: 'The organization must be incorporated as a nonprofit corporation',
  is_501c3_required: 'The organization must hold 501(c)(3) tax exemption',
  is_principal_nonvoting_board_member_required: 'The school official sits on the board as a non-voting member',
  is_monthly_financial_reports_required: 'Monthly financial reports go to the board and the school official',
  is_officers_registered_volunteers_required: 'Officers must be registered school volunteers',
  is_no_compensation_of_school_employees: 'No payments to school employees',
  is_no_handling_of_funds_by_school_employees: 'School employees may not handle the organization’s funds',
};

/** One article per ticked school clause (docs/requirements/product.md tool 3), worded with the school official's title. */
function schoolClauseArticle(clause: SchoolClause, official: Run, school: Run): { title: string; sections: Section[] } {
  switch (clause) {
    case 'is_organization_approval_required':
      return {
        title: 'School Approval of the Organization',
        sections: [
          {
            title: 'Approval Before Operating',
            paragraphs: [
              p(
                'The Organization shall not hold itself out as supporting ',
                school,
                ', use the name, marks or facilities of ',
                school,
                ', or raise funds on its behalf until the ',
                official,
                ' has approved the Organization in writing.',
              ),
            ],
          },
          {
            title: 'Renewal of Approval',
            paragraphs: [
              p(
                'The Organization shall ask the ',
                official,
                ' to renew that approval each school year, and shall stop any activity the ',
                official,
                ' withdraws approval for until the matter is resolved.',
              ),
            ],
          },
        ],
      };
    case 'is_bylaws_approval_required':
      return {
        title: 'School Approval of the Bylaws',
        sections: [
          {
            title: 'Approval of Bylaws and Amendments',
            paragraphs: [
              p(
                'These bylaws, and every amendment to them, take effect only after the ',
                official,
                ' has approved them in writing. The Secretary shall deliver a copy of any amendment adopted by the members to the ',
                official,
                ' within fourteen (14) days of its adoption.',
              ),
            ],
          },
        ],
      };
    case 'is_officers_required':
      return {
        title: 'Required Officers',
        sections: [
          {
            title: 'Officers at All Times',
            paragraphs: [
              p(
                'The Organization shall at all times have at least a President, a Secretary and a Treasurer, held by three different persons.',
              ),
            ],
          },
          {
            title: 'Report of Officers',
            paragraphs: [
              p(
                'Within thirty (30) days after each election or any change of officers, the Secretary shall give the ',
                official,
                ' the names and contact information of all officers.',
              ),
            ],
          },
        ],
      };
    case 'is_incorporation_required':
      return {
        title: 'Incorporation',
        sections: [
          {
            title: 'Nonprofit Corporation',
            paragraphs: [
              p(
                'The Organization shall be incorporated as a nonprofit corporation under the laws of the state in which ',
                school,
                ' is located, and shall file the annual reports its state requires to remain in good standing.',
              ),
            ],
          },
          {
            title: 'Evidence of Good Standing',
            paragraphs: [
              p(
                'On request, the Secretary shall give the ',
                official,
                ' a copy of the articles of incorporation and proof that the corporation is in good standing.',
              ),
            ],
          },
        ],
      };
    case 'is_501c3_required':
      return {
        title: 'Federal Tax Exemption',
        sections: [
          {
            title: 'Recognition of Exemption',
            paragraphs: [
              p(
                'The Organization shall obtain and keep recognition of exemption from federal income tax under section 501(c)(3) of the Internal Revenue Code, either by its own determination letter or as a subordinate under a group exemption.',
              ),
            ],
          },
          {
            title: 'Annual Information Return',
            paragraphs: [
              p(
                'The Treasurer shall see that the annual information return of the Form 990 series is filed on time every year, and shall give the ',
                official,
                ' a copy of the determination letter and of each return on request.',
              ),
            ],
          },
        ],
      };
    case 'is_principal_nonvoting_board_member_required':
      return {
        title: 'School Representative on the Board',
        sections: [
          {
            title: 'Non-Voting Member',
            paragraphs: [
              p(
                'The ',
                official,
                ', or a person the ',
                official,
                ' designates in writing, is a member of the Executive Board without a vote, receives notice of every Board meeting and may speak at any Board or membership meeting.',
              ),
            ],
          },
          {
            title: 'Not Counted for Quorum',
            paragraphs: [
              p('The school representative is not counted when a quorum of the Executive Board is determined.'),
            ],
          },
        ],
      };
    case 'is_monthly_financial_reports_required':
      return {
        title: 'Monthly Financial Reports',
        sections: [
          {
            title: 'Reports',
            paragraphs: [
              p(
                'Each month the Treasurer shall prepare a written financial report showing the opening balance, all money received and paid out, and the closing balance, with the bank statement for the month, and shall give it to the Executive Board and to the ',
                official,
                '.',
              ),
            ],
          },
        ],
      };
    case 'is_officers_registered_volunteers_required':
      return {
        title: 'Officers as Registered Volunteers',
        sections: [
          {
            title: 'Volunteer Registration',
            paragraphs: [
              p(
                'Every officer shall be a registered volunteer of ',
                school,
                ' or its school district, having completed any screening the school or district requires, before taking office and for as long as the officer serves.',
              ),
            ],
          },
        ],
      };
    case 'is_no_compensation_of_school_employees':
      return {
        title: 'No Compensation of School Employees',
        sections: [
          {
            title: 'Prohibited Payments',
            paragraphs: [
              p(
                'The Organization shall not pay any salary, stipend, bonus, gift card or other compensation to any employee of ',
                school,
                ' or its school district, directly or through another person, except reimbursement of documented expenses approved in advance by the Executive Board and the ',
                official,
                '.',
              ),
            ],
          },
        ],
      };
    case 'is_no_handling_of_funds_by_school_employees':
      return {
        title: 'Handling of Funds',
        sections: [
          {
            title: 'Funds Handled by Members Only',
            paragraphs: [
              p(
                'No employee of ',
                school,
                ' or its school district shall collect, hold, deposit, withdraw or sign for the funds of the Organization, or be a signer on its accounts, unless that person is also a member of the Organization acting as an elected officer.',
              ),
            ],
          },
        ],
      };
  }
}

/**
 * Builds the bylaws of one variant from its answers (docs/requirements/entities.md Bylaw standard / short / school).
 * Month answers are 0-based indexes. Pure: no clock, no randomness.
 * @returns the document model for the .docx writer and the HTML preview
 */
export function buildBylawsDocument(answers: BylawAnswers, opts: DocumentOptions): BylawsDocument {
  const variant = answers.version;
  const short = variant === 'short';
  const school = variant === 'school' || (variant === 'standard' && answers.is_school === 1);
  const name = a(answers.name);
  const fye = answers.fiscal_year_end;
  const facility = answers.facility ? a(answers.facility) : null;
  const official: Run = answers.school_official_title ? a(answers.school_official_title) : { text: 'principal' };
  const quorum = short
    ? 'ten percent (10%) of the voting members'
    : minimum(answers.meeting_attendee_minimum, 'ten percent (10%) of the voting members');
  const request = short
    ? 'one-tenth (1/10) of the voting members'
    : minimum(answers.meeting_request_minimum, 'one-tenth (1/10) of the voting members');
  const quorumRun = short ? { text: quorum } : a(quorum);
  const requestRun = short ? { text: request } : a(request);
  const annualMonth = short ? null : a(monthName(answers.annual_meeting_month ?? 4));
  const nominationMonth = short ? null : a(monthName(answers.nomination_month ?? 3));
  const supporter = facility ?? { text: 'the community it serves' };

  const articles: Omit<Article, 'number'>[] = [];

  articles.push({
    title: 'Name',
    sections: [
      { title: 'Name', paragraphs: [p('The name of this organization is ', name, ' (the “Organization”).')] },
      ...(facility
        ? [
            {
              title: 'Organization Supported',
              paragraphs: [
                p(
                  'The Organization is organized to support ',
                  facility,
                  school ? ', a school,' : '',
                  ' and the students and people it serves. The Organization is a separate, independent organization and is not an agency of ',
                  facility,
                  '.',
                ),
              ],
            },
          ]
        : []),
    ],
  });

  articles.push({
    title: 'Purposes',
    sections: [
      {
        title: 'Charitable and Educational Purposes',
        paragraphs: [
          p(
            'The Organization is organized and shall be operated exclusively for charitable and educational purposes within the meaning of section 501(c)(3) of the Internal Revenue Code of 1986, as amended, or the corresponding section of any future federal tax code (the “Code”).',
          ),
        ],
      },
      {
        title: 'Specific Purpose',
        paragraphs: [p('Within those purposes, the specific purpose of the Organization is: ', a(answers.purpose))],
      },
      {
        title: 'Limitations',
        paragraphs: [
          p(
            'No part of the net earnings of the Organization shall inure to the benefit of, or be distributable to, its members, officers, directors or other private persons, except that the Organization may pay reasonable compensation for services rendered and make payments and distributions in furtherance of its purposes.',
          ),
          p(
            'No substantial part of the activities of the Organization shall be carrying on propaganda or otherwise attempting to influence legislation, and the Organization shall not participate in or intervene in (including the publishing or distribution of statements) any political campaign on behalf of or in opposition to any candidate for public office.',
          ),
          p(
            'Notwithstanding any other provision of these bylaws, the Organization shall not carry on any activity not permitted to be carried on by an organization exempt from federal income tax under section 501(c)(3) of the Code, or by an organization contributions to which are deductible under section 170(c)(2) of the Code.',
          ),
        ],
      },
    ],
  });

  articles.push({
    title: 'Membership',
    sections: [
      {
        title: 'Eligibility',
        paragraphs: [
          p(
            'Membership is open to any person who supports the purposes of the Organization',
            facility
              ? p(
                  ', including parents and guardians of students of ',
                  facility,
                  ', its staff, and members of the community',
                )
              : '',
            ', and who has paid any dues the Executive Board sets for the current fiscal year.',
          ),
        ],
      },
      {
        title: 'Nondiscrimination',
        paragraphs: [
          p(
            'Membership and participation in the Organization shall not be denied to any person on the basis of race, color, religion, sex, national origin, age, disability, sexual orientation or gender identity.',
          ),
        ],
      },
      { title: 'Voting', paragraphs: [p('Each member in good standing has one vote. Members may not vote by proxy.')] },
      {
        title: 'Dues',
        paragraphs: [
          p(
            'The Executive Board may set annual dues, which shall be the same for all members of the same class. No member shall be denied membership for inability to pay dues where the Executive Board has provided for a waiver.',
          ),
        ],
      },
    ],
  });

  articles.push({
    title: 'Meetings of Members',
    sections: [
      {
        title: 'Regular Meetings',
        paragraphs: [
          p(
            'The members shall meet at least four times during each fiscal year, at a time and place the Executive Board sets.',
          ),
        ],
      },
      {
        title: 'Annual Meeting',
        paragraphs: [
          annualMonth === null
            ? p(
                'The annual meeting of the members, at which officers are elected, shall be held during the last three months of the fiscal year.',
              )
            : p(
                'The annual meeting of the members shall be held in ',
                annualMonth,
                ' of each year. Officers are elected at the annual meeting.',
              ),
        ],
      },
      {
        title: 'Special Meetings',
        paragraphs: [
          p(
            'Special meetings of the members may be called by the President, by the Executive Board, or upon the written request of ',
            requestRun,
            ' delivered to the Secretary. A special meeting shall be held within thirty (30) days of the request and may act only on the business stated in its notice.',
          ),
        ],
      },
      {
        title: 'Notice',
        paragraphs: [
          p(
            'Notice of every meeting of the members, stating its date, time and place (and, for a special meeting, its purpose), shall be given to every member at least seven (7) days before the meeting by e-mail, by post or by announcement at the preceding meeting.',
          ),
        ],
      },
      {
        title: 'Quorum',
        paragraphs: [
          p(
            'A quorum for the transaction of business at any meeting of the members is ',
            quorumRun,
            ' in good standing, present in person or by a video or telephone connection through which all participants can hear one another.',
          ),
        ],
      },
      {
        title: 'Voting and Procedure',
        paragraphs: [
          p(
            'Except as these bylaws provide otherwise, decisions are made by a majority of the votes cast at a meeting at which a quorum is present. Meetings are conducted according to the current edition of Robert’s Rules of Order, Newly Revised, where it does not conflict with these bylaws.',
          ),
        ],
      },
    ],
  });

  articles.push({
    title: 'Officers',
    sections: [
      {
        title: 'Officers',
        paragraphs: [
          p(
            'The officers of the Organization are a President, a Vice President, a Secretary and a Treasurer. No person may hold more than one office at the same time, and the President and the Treasurer shall not be members of the same household.',
          ),
        ],
      },
      {
        title: 'Nominations',
        paragraphs: [
          nominationMonth === null
            ? p('Nominations for office open two months before the annual meeting.')
            : p(
                'Nominations for office open in ',
                nominationMonth,
                ' of each year. The President shall appoint a nominating committee of at least three members, which shall present a slate of candidates to the members at least two weeks before the election; further nominations may be made from the floor with the consent of the nominee.',
              ),
        ],
      },
      {
        title: 'Election and Term',
        paragraphs: [
          annualMonth === null
            ? p(
                'Officers are elected by the members at the annual meeting by a majority of the votes cast, and serve a term of one year beginning on the first day of the following fiscal year, or until their successors are elected.',
              )
            : p(
                'Officers are elected by the members at the annual meeting in ',
                annualMonth,
                ' by a majority of the votes cast, and serve a term of one year beginning on the first day of the following fiscal year, or until their successors are elected. An officer may serve no more than two consecutive terms in the same office.',
              ),
        ],
      },
      {
        title: 'Duties',
        paragraphs: [
          p(
            'The President presides at all meetings, appoints committees, and is a co-signer on the Organization’s accounts. The Vice President acts for the President when the President is absent and carries out the duties the President assigns.',
          ),
          p(
            'The Secretary keeps the minutes of all meetings and the records of the Organization, gives notice of meetings and keeps the membership list. The Treasurer receives and deposits all funds, pays the bills the Organization approves, keeps accurate books, and reports on the finances at each meeting.',
          ),
        ],
      },
      {
        title: 'Vacancies and Removal',
        paragraphs: [
          p(
            'A vacancy in any office is filled for the rest of the term by a majority vote of the Executive Board. An officer may be removed by a two-thirds (2/3) vote of the members present at a meeting, provided notice of the proposed removal was given with the notice of the meeting.',
          ),
        ],
      },
    ],
  });

  articles.push({
    title: 'Executive Board',
    sections: [
      {
        title: 'Composition and Powers',
        paragraphs: [
          p(
            'The officers form the Executive Board, which manages the business of the Organization between meetings of the members, approves the annual budget, and reports its actions to the members.',
          ),
        ],
      },
      {
        title: 'Meetings and Quorum',
        paragraphs: [
          p(
            'The Executive Board meets at the call of the President or of any two of its members. A majority of the Executive Board is a quorum, and its decisions are made by a majority of those present. The Board may act without a meeting by unanimous written consent, including by e-mail, recorded in the minutes.',
          ),
        ],
      },
      {
        title: 'Committees',
        paragraphs: [
          p(
            'The Executive Board may create standing and special committees, appoint their chairs, and dissolve them. Every committee reports to the Board, and no committee may spend money or bind the Organization without the Board’s approval.',
          ),
        ],
      },
    ],
  });

  articles.push({
    title: 'Finances',
    sections: [
      {
        title: 'Fiscal Year',
        paragraphs: [
          p(
            'The fiscal year of the Organization begins on the first day of ',
            a(monthName((fye ?? 11) + 1)),
            ' and ends on the last day of ',
            a(monthName(fye ?? 11)),
            ' of each year.',
          ),
        ],
      },
      {
        title: 'Accounts and Signatures',
        paragraphs: [
          p(
            'All funds of the Organization shall be deposited promptly, without deduction, in accounts in the Organization’s own name and under its own employer identification number. Every payment requires the approval of two officers, and no officer may approve a payment to himself or herself or to a member of his or her household.',
          ),
        ],
      },
      {
        title: 'Budget and Reports',
        paragraphs: [
          p(
            'The Executive Board shall adopt a budget at the start of each fiscal year. The Treasurer shall report the Organization’s income, expenses and balances at each meeting, and the books shall be reviewed within sixty (60) days after the end of each fiscal year by two members who are not signers on the accounts, who shall report to the members.',
          ),
        ],
      },
      {
        title: 'Annual Filings',
        paragraphs: [
          p(
            'The Treasurer shall see that the Organization’s annual information return of the Form 990 series (Form 990-N, 990-EZ or 990, as the Organization’s gross receipts require) is filed with the Internal Revenue Service by the fifteenth day of ',
            a(filingMonth(fye ?? 11)),
            ', the fifth month after the end of the fiscal year, and that any state registration or annual report is filed on time.',
          ),
        ],
      },
      {
        title: 'No Compensation',
        paragraphs: [
          p(
            'Members, officers and Board members serve without compensation. They may be reimbursed for reasonable expenses incurred on behalf of the Organization and approved in advance, on presentation of receipts.',
          ),
        ],
      },
      {
        title: 'Conflicts of Interest',
        paragraphs: [
          p(
            'Any officer or member who has a financial interest in a transaction of the Organization shall disclose it, shall not vote on it, and the disclosure shall be recorded in the minutes.',
          ),
        ],
      },
    ],
  });

  if (school && variant === 'school') {
    const schoolRun = facility ?? a('the school');
    articles.push({
      title: 'Relationship with the School',
      sections: [
        {
          title: 'Cooperation',
          paragraphs: [
            p(
              'The Organization works in cooperation with ',
              schoolRun,
              ' and its administration. The ',
              official,
              ' is the school official through whom the Organization deals with ',
              schoolRun,
              '.',
            ),
          ],
        },
        {
          title: 'Independence',
          paragraphs: [
            p(
              'The Organization is responsible for its own debts, contracts, insurance and filings. It shall follow the policies of ',
              schoolRun,
              ' and its school district when it acts on school property or at school events.',
            ),
          ],
        },
      ],
    });
    for (const clause of SCHOOL_CLAUSES) {
      if (answers[clause] === 1) articles.push(schoolClauseArticle(clause, official, schoolRun));
    }
  } else if (school) {
    articles.push({
      title: 'Relationship with the School',
      sections: [
        {
          title: 'Cooperation',
          paragraphs: [
            p(
              'The Organization works in cooperation with ',
              supporter,
              ' and follows the policies of its school district when it acts on school property or at school events. The Organization is responsible for its own debts, contracts, insurance and filings.',
            ),
          ],
        },
      ],
    });
  }

  articles.push({
    title: 'Amendments',
    sections: [
      {
        title: 'Amendment of Bylaws',
        paragraphs: [
          p(
            'These bylaws may be amended at any meeting of the members at which a quorum is present by a two-thirds (2/3) vote of the members present and voting, provided the proposed amendment was sent to the members with the notice of the meeting. No amendment may change the purposes of the Organization in a way that would cause it to lose its exemption under section 501(c)(3) of the Code.',
          ),
        ],
      },
    ],
  });

  articles.push({
    title: 'Dissolution',
    sections: [
      {
        title: 'Vote to Dissolve',
        paragraphs: [
          p(
            'The Organization may be dissolved by a two-thirds (2/3) vote of the members present and voting at a meeting called for that purpose.',
          ),
        ],
      },
      {
        title: 'Distribution of Assets',
        paragraphs: [
          p(
            'Upon dissolution, after paying or providing for all of its debts, the Organization shall distribute its remaining assets for one or more exempt purposes within the meaning of section 501(c)(3) of the Code',
            facility
              ? p(
                  ', which may include ',
                  facility,
                  ' if it is a governmental unit or an organization exempt under section 501(c)(3)',
                )
              : '',
            ', or to the federal government or a state or local government for a public purpose. No assets shall be distributed to any member, officer or private person.',
          ),
        ],
      },
    ],
  });

  const numbered: Article[] = articles.map((art, i) => ({ number: i + 1, ...art }));

  return {
    variant,
    title: p('Bylaws of ', name),
    highlighted: answers.is_highlighted === 1,
    preamble: [p('These bylaws govern the affairs of ', name, ', a nonprofit organization.')],
    articles: numbered,
    certification: [
      p('Certificate of adoption'),
      p(
        'I certify that I am the duly elected Secretary of ',
        name,
        ' and that the members adopted these bylaws at a meeting held on ____________________, 20____, at which a quorum was present.',
      ),
      p('Signed: ______________________________   Secretary'),
      p('Printed name: ______________________________   Date: ______________'),
    ],
    brand: short ? opts.shortBrand : opts.brand,
    footer: `Prepared with ${short ? opts.shortBrand : opts.brand}. General guidance, not legal advice: review before adopting.`,
  };
}

/** The document as plain text, one paragraph a line (for search, tests and the file's description). */
export function documentText(doc: BylawsDocument): string {
  const line = (para: Paragraph) => para.map((r) => r.text).join('');
  const out = [line(doc.title), ...doc.preamble.map(line)];
  for (const art of doc.articles) {
    out.push(`Article ${roman(art.number)}. ${art.title}`);
    art.sections.forEach((s, i) => {
      out.push(`Section ${i + 1}. ${s.title}.`);
      out.push(...s.paragraphs.map(line));
    });
  }
  out.push(...doc.certification.map(line), doc.footer);
  return out.join('\n');
}

/** A safe download name after the organization: 'Soldotna Track Boosters Bylaws.docx'. */
export function bylawsFileName(name: string): string {
  const base = name
    .normalize('NFKC')
    // eslint-disable-next-line no-control-regex -- control characters are what this strips from file names
    .replace(/[\\/:*?"<>|\u0000-\u001F\u007F]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 120)
    .replace(/[. ]+$/, '');
  return `${base || 'Organization'} Bylaws.docx`;
}
