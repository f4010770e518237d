// Longer than 400 lines: data, not logic: every question page of every level's wizard, field by field, as
// staff could have typed it.
/**
 * The application wizard's question pages per level (docs/requirements/entities.md "Wizard configuration", "Field
 * definition", "Bylaw form (booster wizard step)"; docs/requirements/behaviour.md "Wizard"). Field names are
 * `account___x`, `contact___x` or `bylaw___x`: the part after the triple underscore is the stored
 * attribute. Rules are the rules strings that src/shared/forms/rules.ts checks.
 *
 * Start-up schemas (start-up, full-service, greek-chapter) include the tax exemption, so they
 * refuse groups that have applied before or already hold a 501(c) letter ('required|in:0'); the
 * maintain schema is for exactly those groups ('required|in:1' on the letter). A refusal reads
 * 'The selected ... is invalid.' and the wizard adds "Did you start the wrong application?".
 */
import { MONTHS } from '../../../shared/lists/months.ts';
import type { FieldDefinition, WizardPage } from '../../../shared/forms/field-definition.ts';

export type WizardLevelSlug = 'start-up' | 'maintain' | 'full-service' | 'greek-chapter' | 'reinstatement';
export const WIZARD_LEVEL_SLUGS: readonly WizardLevelSlug[] = [
  'start-up',
  'maintain',
  'full-service',
  'greek-chapter',
  'reinstatement',
];

/**
 * The nine fields of docs/requirements/entities.md "Bylaw form (booster wizard step)", as wizard field names. The
 * wizard asks eight: `bylaw___fiscal_year_end` follows from the fiscal year the group already gave
 * (derivedAnswers, docs/wizard.md "Answers asked once").
 */
export const BYLAW_STEP_FIELDS = [
  'bylaw___name',
  'bylaw___purpose',
  'bylaw___facility',
  'bylaw___meeting_attendee_minimum',
  'bylaw___nomination_month',
  'bylaw___annual_meeting_month',
  'bylaw___meeting_request_minimum',
  'bylaw___fiscal_year_end',
  'bylaw___is_highlighted',
] as const;

export const WIZARD_TITLES: Record<WizardLevelSlug, string> = {
  'start-up': 'Start-up application: tax exemption for your group',
  maintain: 'Maintain application: keep your existing exemption in good standing',
  'full-service': 'Full-service application: tax exemption and state incorporation',
  'greek-chapter': 'Greek chapter application',
  reinstatement: 'Reinstatement application: get back the exemption the IRS revoked',
};

/** Shown on the last page of every wizard. */
export const SUBMISSION_ALERT =
  'By submitting, you confirm that your answers are accurate and complete to the best of your knowledge, and an invoice for your chosen level will be created in your account. ' +
  'Any bylaws we generate are general guidance, not legal advice: review them with your members before you adopt them.';

// ---------------------------------------------------------------------------------------------
// Option lists

const YES_NO = [
  { value: '1', label: 'Yes' },
  { value: '0', label: 'No' },
];

/** Account fiscal year end: '1'..'12' (docs/requirements/entities.md "months"). */
const FISCAL_MONTHS: Record<string, string> = Object.fromEntries(
  Object.entries(MONTHS).map(([k, name]) => [String(k), name]),
);

/** Bylaw month selects: 12 entries with 0-based values '0'..'11' (docs/requirements/entities.md, docs/requirements/constants.md). */
const BYLAW_MONTHS: Record<string, string> = Object.fromEntries(
  Object.entries(MONTHS).map(([k, name]) => [String(Number(k) - 1), name]),
);

// ---------------------------------------------------------------------------------------------
// Shared building blocks

const divider = (name: string): FieldDefinition => ({ name, field_type: 'divider' });
const heading = (name: string, label: string, description?: string): FieldDefinition => ({
  name,
  field_type: 'heading',
  label,
  ...(description ? { description } : {}),
});

function mailingAddress(prefix: string): FieldDefinition[] {
  return [
    heading(
      `${prefix}_heading_address`,
      'Mailing address',
      "Where the IRS and the state will send letters. A P.O. box or an officer's home address is fine; pick one that will not change when officers do.",
    ),
    {
      name: 'account___street',
      label: 'Street address or P.O. box',
      field_type: 'text',
      rules: 'required|max:100',
      placeholder: '123 Main Street',
    },
    { name: 'account___city', label: 'City', field_type: 'text', rules: 'required|max:60' },
    { name: 'account___state', label: 'State', field_type: 'state', rules: 'required' },
    {
      name: 'account___zip',
      label: 'ZIP code',
      field_type: 'text',
      rules: 'required|min:5|max:10',
      placeholder: '12345',
    },
  ];
}

function officerFields(
  role: 'president' | 'treasurer' | 'secretary',
  required: boolean,
  extra: Partial<Record<'first_name', Partial<FieldDefinition>>> = {},
): FieldDefinition[] {
  const title = role.charAt(0).toUpperCase() + role.slice(1);
  const req = required ? 'required|' : '';
  return [
    {
      name: `contact___${role}_first_name`,
      label: `${title}'s first name`,
      field_type: 'text',
      rules: `${req}max:50`,
      ...extra.first_name,
    },
    { name: `contact___${role}_last_name`, label: `${title}'s last name`, field_type: 'text', rules: `${req}max:50` },
    {
      name: `contact___${role}_email`,
      label: `${title}'s e-mail`,
      field_type: 'text',
      rules: `${req}email|max:255`,
      placeholder: 'name@example.com',
      sub_label: 'A personal address the officer checks; not a school or work address they may lose.',
    },
    {
      name: `contact___${role}_phone`,
      label: `${title}'s phone`,
      field_type: 'text',
      rules: `${req}min:10|max:20`,
      placeholder: '(555) 555-0123',
    },
  ];
}

function officersPage(opts: { group: string; withSecretary?: boolean; withAdvisor?: boolean }): WizardPage {
  const schema: FieldDefinition[] = [
    heading(
      'officers_heading_president',
      'President',
      `The person who leads the ${opts.group}. We send reminders and IRS notices to the president and the treasurer.`,
    ),
    ...officerFields('president', true),
    divider('officers_divider_treasurer'),
    heading('officers_heading_treasurer', 'Treasurer', 'The person who keeps the books and the bank account.'),
    ...officerFields('treasurer', true, {
      first_name: {
        // docs/wizard.md "Officers": refused when it names the president again.
        rules: 'required|max:50|different_person:president',
        side_label: 'President: |contact___president_last_name',
        instructions:
          'The treasurer must be a different person from the president: banks and the IRS expect two people to look after the money.',
      },
    }),
  ];
  if (opts.withSecretary) {
    schema.push(
      divider('officers_divider_secretary'),
      heading(
        'officers_heading_secretary',
        'Secretary',
        'Most states ask for at least three directors on the articles of incorporation, so we need a third officer.',
      ),
      ...officerFields('secretary', true),
    );
  }
  if (opts.withAdvisor) {
    schema.push(
      divider('officers_divider_advisor'),
      heading(
        'officers_heading_advisor',
        'Chapter advisor (optional)',
        "Student officers change every year. An alumni or campus advisor keeps the chapter's records and deadlines from getting lost in the handover.",
      ),
      { name: 'contact___advisor_first_name', label: "Advisor's first name", field_type: 'text', rules: 'max:50' },
      { name: 'contact___advisor_last_name', label: "Advisor's last name", field_type: 'text', rules: 'max:50' },
      {
        name: 'contact___advisor_email',
        label: "Advisor's e-mail",
        field_type: 'text',
        rules: 'email|max:255',
        placeholder: 'name@example.com',
      },
    );
  }
  schema.push({
    name: 'officers_privacy_link',
    field_type: 'link',
    link: { href: '/privacy', html: 'How we use and protect officer contact details' },
  });
  return {
    label: 'Officers',
    description: opts.withSecretary
      ? 'Who runs the group: the president, the treasurer and a secretary. You can add more users to your account later.'
      : 'Who runs the group: the president and the treasurer. You can add more users to your account later.',
    schema,
  };
}

/** Exemption history and EIN for the start-up schemas: a group that applied before or holds a letter is in the wrong application. */
function taxStatusPage(opts: { group: string; greek?: boolean }): WizardPage {
  const schema: FieldDefinition[] = [
    heading(
      'tax_heading_history',
      'Tax exemption history',
      `These two answers tell us whether this is the right application for your ${opts.group}.`,
    ),
    {
      name: 'account___has_requested_exemption',
      label: 'Has your group ever applied to the IRS for tax exemption?',
      field_type: 'radio',
      rules: 'required|in:0',
      options: YES_NO,
      instructions: 'For example with Form 1023, Form 1023-EZ or Form 1024, even if the IRS never answered.',
    },
    {
      name: 'account___has_501c',
      label: 'Does your group already have a 501(c) determination letter?',
      field_type: 'radio',
      rules: 'required|in:0',
      options: YES_NO,
      instructions: 'A letter from the IRS saying the group is exempt under section 501(c)(3), 501(c)(4) or similar.',
    },
    {
      name: 'tax_warning_wrong_application',
      field_type: 'warning',
      label: 'Already applied or already exempt?',
      description: opts.greek
        ? "This application includes getting your chapter's tax exemption. If your chapter already has its own exemption, or is already covered by your national organization's group exemption, you need the Maintain application instead; ask your national headquarters if you are not sure."
        : "This application includes getting your group's tax exemption. If your group already has an exemption, or has applied to the IRS and is waiting for its letter, you need the Maintain application instead: it has a path for groups waiting for their letter.",
    },
    divider('tax_divider_ein'),
    heading(
      'tax_heading_ein',
      'Employer Identification Number (EIN)',
      "The EIN is the group's federal tax ID number. Banks ask for it when you open an account.",
    ),
    {
      name: 'account___has_ein',
      label: 'We already have an EIN',
      field_type: 'checkbox',
      sub_label: 'No EIN yet? Leave this unchecked: we will get one for you.',
      description:
        'If the group ever had an EIN (check old bank statements or ask past treasurers), use that one. A second EIN for the same group causes problems with the IRS.',
    },
    {
      name: 'account___ein',
      label: 'EIN',
      field_type: 'text',
      rules: 'required|ein',
      is_conditional: 'account___has_ein',
      placeholder: '12-3456789',
      instructions: 'Nine digits. You will find it on the IRS letter that assigned it (CP 575) and on bank statements.',
    },
  ];
  return {
    label: 'Tax status',
    description: 'Whether the group has dealt with the IRS before, and its federal tax ID number.',
    schema,
  };
}

/** Fiscal year and gross receipts: they decide which Form 990 the group files and when. */
function moneyFields(prefix: string, opts: { hasEin: boolean }): FieldDefinition[] {
  return [
    heading(`${prefix}_heading_money`, 'Fiscal year and income'),
    {
      name: 'account___fiscal_year_end',
      label: 'Last month of your fiscal year',
      field_type: 'select',
      rules: 'required',
      options: FISCAL_MONTHS,
      instructions: opts.hasEin
        ? 'This must match the month given to the IRS: it is on the letter that assigned your EIN and on past Form 990 filings.'
        : 'This must match the month given to the IRS. If you already have an EIN, use the month on its IRS letter. Most school groups end their year in June, after the last event of the school year.',
    },
    {
      name: 'account___gross_receipts',
      label: 'Expected gross receipts per year (dollars)',
      field_type: 'text',
      rules: 'required|integer|min:0|max:100000000',
      placeholder: '25000',
      instructions: 'Whole dollars, numbers only: 25000, not $25,000.',
      description:
        'All the money coming in during a year before any expenses: dues, donations, sponsorships, ticket, concession and fundraiser sales. Groups that normally take in $50,000 or less a year can file the short Form 990-N (e-Postcard); above that the IRS expects Form 990-EZ or Form 990.',
    },
    {
      name: `${prefix}_link_990`,
      field_type: 'link',
      link: { href: '/irs-form-990', html: 'Which Form 990 does my group file?' },
    },
  ];
}

function bylawsPage(opts: {
  group: string;
  purposePlaceholder: string;
  facilityLabel: string;
  facilityPlaceholder: string;
  namePlaceholder: string;
}): WizardPage {
  const memberCount = 'An integer (15), a percentage (25%) or a fraction of at least 1/10 (1/4) of the voting members.';
  return {
    label: 'Bylaws',
    description: `The answers we use to write your ${opts.group}'s bylaws. You can change the wording before you adopt them.`,
    schema: [
      heading('bylaws_heading_basics', 'About the organization'),
      {
        name: 'bylaw___name',
        label: 'Name of the organization in the bylaws',
        field_type: 'text',
        rules: 'required|max:100',
        placeholder: opts.namePlaceholder,
        instructions: 'Filled in with your organization name; change it only if the bylaws use another.',
      },
      {
        name: 'bylaw___purpose',
        label: 'Purpose',
        field_type: 'textarea',
        rules: 'required|max:1000',
        rows: 4,
        placeholder: opts.purposePlaceholder,
        description:
          "Fundraising is not a tax-exempt purpose. Say what the group donates or provides, and to whom: for example equipment and travel costs for the school's teams, or scholarships for graduating seniors.",
      },
      {
        name: 'bylaw___facility',
        label: opts.facilityLabel,
        field_type: 'text',
        rules: 'required|max:100',
        placeholder: opts.facilityPlaceholder,
        instructions:
          'Filled in with the school or program you named earlier; change it if the bylaws should name another.',
      },
      divider('bylaws_divider_meetings'),
      heading('bylaws_heading_meetings', 'Meetings and elections'),
      {
        name: 'bylaw___meeting_attendee_minimum',
        label: 'Members needed at a meeting to vote (quorum)',
        field_type: 'text',
        rules: 'required|max:20|member_minimum',
        placeholder: '10%',
        instructions: memberCount,
      },
      {
        name: 'bylaw___meeting_request_minimum',
        label: 'Members needed to call a special meeting',
        field_type: 'text',
        rules: 'required|max:20|member_minimum',
        placeholder: '1/10',
        instructions: memberCount,
      },
      {
        name: 'bylaw___nomination_month',
        label: 'Month officer nominations are made',
        field_type: 'select',
        rules: 'required',
        options: BYLAW_MONTHS,
      },
      {
        name: 'bylaw___annual_meeting_month',
        label: 'Month of the annual meeting and officer elections',
        field_type: 'select',
        rules: 'required',
        options: BYLAW_MONTHS,
        instructions: 'Usually the month after nominations, before the end of the fiscal year.',
      },
      divider('bylaws_divider_review'),
      {
        name: 'bylaw___is_highlighted',
        label: 'Highlight my answers in the bylaws document',
        field_type: 'checkbox',
        sub_label: 'Makes the parts that came from your answers easy to find when you review the document.',
      },
      {
        name: 'bylaws_warning_guidance',
        field_type: 'warning',
        label: 'The bylaws we generate are general guidance: review them before you adopt them.',
        description:
          'They are not legal advice. Read them with your officers, check any rules your school, district or national organization has for affiliated groups, and change what does not fit before the members vote to adopt them.',
      },
    ],
  };
}

// ---------------------------------------------------------------------------------------------
// Booster / PTO pages

const BOOSTER_GROUP_PAGE: WizardPage = {
  label: 'Your group',
  description: 'The name of your booster club or parent group, the school it supports and its mailing address.',
  schema: [
    heading('group_heading_name', 'About your group'),
    {
      name: 'account___name',
      label: 'Organization name',
      field_type: 'text',
      rules: 'required|max:100',
      placeholder: 'Lincoln High Band Boosters',
      instructions:
        'The name you want on your IRS paperwork and bank account. Spell it out in full, without abbreviations.',
    },
    {
      name: 'account___school',
      label: 'School or program you support',
      field_type: 'text',
      rules: 'required|max:100',
      placeholder: 'Lincoln High School',
      sub_label: 'For a community group, the team, league or facility you support.',
    },
    divider('group_divider_address'),
    ...mailingAddress('group'),
  ],
};

const BOOSTER_BYLAWS = bylawsPage({
  group: 'group',
  namePlaceholder: 'Lincoln High Band Boosters',
  purposePlaceholder:
    'To support the students of the Lincoln High School band program by donating instruments, uniforms and travel costs to the band program, and by encouraging parent involvement.',
  facilityLabel: 'School or facility supported',
  facilityPlaceholder: 'Lincoln High School',
});

const START_UP_PAGES: WizardPage[] = [
  BOOSTER_GROUP_PAGE,
  officersPage({ group: 'group' }),
  taxStatusPage({ group: 'group' }),
  {
    label: 'Money',
    description:
      'Your fiscal year and how much money the group expects to take in: they decide which IRS return you file and when.',
    schema: moneyFields('money', { hasEin: false }),
  },
  BOOSTER_BYLAWS,
];

const FULL_SERVICE_PAGES: WizardPage[] = [
  BOOSTER_GROUP_PAGE,
  officersPage({ group: 'group', withSecretary: true }),
  taxStatusPage({ group: 'group' }),
  {
    label: 'Money',
    description:
      'Your fiscal year and how much money the group expects to take in: they decide which IRS return you file and when.',
    schema: moneyFields('money', { hasEin: false }),
  },
  {
    label: 'Incorporation',
    description: 'What we need to incorporate your group with the state and register it for fundraising.',
    schema: [
      heading(
        'inc_heading_corporation',
        'State incorporation',
        "A nonprofit corporation protects officers and members from personal liability for the group's debts.",
      ),
      {
        name: 'account___is_incorporated',
        label: 'Our group is already incorporated with the state',
        field_type: 'checkbox',
        sub_label: 'Leave unchecked if not: we will file the articles of incorporation for you.',
      },
      {
        name: 'account___incorporation_date',
        label: 'Date of incorporation',
        field_type: 'date',
        rules: 'required|date',
        is_conditional: 'account___is_incorporated',
        instructions: 'On the certificate or the filed articles of incorporation.',
      },
      {
        name: 'account___legal_name',
        label: 'Legal name of the corporation',
        field_type: 'text',
        rules: 'required|max:100',
        placeholder: 'Lincoln High Band Boosters, Inc.',
        instructions:
          'If you are already incorporated, the exact name on your articles. If not, the name you want: many states require a word such as "Inc." or "Incorporated", and we check that the name is available.',
      },
      {
        name: 'account___alternate_name',
        label: 'Second choice of name',
        field_type: 'text',
        rules: 'max:100',
        sub_label: 'Used only if your first choice is taken in your state.',
      },
      divider('inc_divider_agent'),
      heading('inc_heading_agent', 'Registered agent'),
      {
        name: 'account___registered_agent',
        label: 'Who will be the registered agent?',
        field_type: 'radio',
        rules: 'required|in:president,treasurer,service',
        options: [
          { value: 'president', label: 'Our president' },
          { value: 'treasurer', label: 'Our treasurer' },
          { value: 'service', label: 'A registered agent service (its fee is extra)' },
        ],
        instructions:
          'The registered agent receives official mail and legal papers for the corporation. The state requires a street address in the state (not a P.O. box) where someone is available during business hours.',
      },
      divider('inc_divider_fundraising'),
      heading('inc_heading_fundraising', 'Fundraising registration'),
      {
        name: 'account___solicits_public',
        label: 'We ask the public, not just our members, for donations',
        field_type: 'checkbox',
        sub_label:
          'Many states require charities that solicit the public to register each year; we will take care of it.',
      },
      {
        name: 'account___has_raffles',
        label: 'We hold raffles, 50/50 drawings or bingo',
        field_type: 'checkbox',
        sub_label: 'Games of chance often need a state or local permit.',
      },
    ],
  },
  BOOSTER_BYLAWS,
];

const MAINTAIN_PAGES: WizardPage[] = [
  BOOSTER_GROUP_PAGE,
  officersPage({ group: 'group' }),
  {
    label: 'Your exemption',
    description: 'Your IRS exemption, or your application waiting for it, exactly as the IRS has it.',
    schema: [
      heading(
        'exempt_heading_history',
        'Your IRS exemption',
        'This application is for groups that already have a 501(c) determination letter, and for groups that have applied and are waiting for it.',
      ),
      {
        name: 'account___has_501c',
        label: 'Does your group already have a 501(c) determination letter?',
        field_type: 'radio',
        rules: 'required|in:1,2',
        options: [
          { value: '1', label: 'Yes' },
          { value: '2', label: 'Applied, waiting for the IRS letter' },
          { value: '0', label: 'No' },
        ],
        instructions:
          'A letter from the IRS saying the group is exempt under section 501(c). A group listed under a group exemption counts: its letter is the parent organization\'s. Filed Form 1023, 1023-EZ or 1024 and no answer yet? Choose "Applied, waiting for the IRS letter".',
      },
      {
        name: 'account___has_requested_exemption',
        label: 'Did your group apply to the IRS itself?',
        field_type: 'radio',
        rules: 'required',
        options: YES_NO,
        is_conditional: 'account___has_501c=1',
        instructions:
          "Answer yes if you applied yourselves (Form 1023, 1023-EZ or 1024); answer no if you are covered through another organization's group exemption.",
      },
      {
        name: 'exempt_warning_no_letter',
        field_type: 'warning',
        label: 'No letter and no application?',
        is_conditional: 'account___has_501c=0',
        description:
          'Then the Start-up application is the one for you: it includes getting the exemption under our IRS group exemption.',
      },
      {
        name: 'account___exemption_form',
        label: 'Which form did you file?',
        field_type: 'radio',
        rules: 'required|in:1023,1023-EZ,1024',
        is_conditional: 'account___has_501c=2',
        options: [
          { value: '1023', label: 'Form 1023' },
          { value: '1023-EZ', label: 'Form 1023-EZ' },
          { value: '1024', label: 'Form 1024 or 1024-A' },
        ],
      },
      {
        name: 'account___exemption_filed_on',
        label: 'Date you filed it',
        field_type: 'date',
        rules: 'required|date|before_or_equal:today',
        is_conditional: 'account___has_501c=2',
        instructions: 'On the confirmation from Pay.gov, or the date you mailed the form.',
      },
      {
        name: 'exempt_warning_letter_awaited',
        field_type: 'warning',
        label: 'You can finish this application without the letter',
        is_conditional: 'account___has_501c=2',
        description:
          'Your account will show that the IRS letter is awaited, and you upload the letter there when it arrives. While you wait, the group\'s annual return is still due each year: Form 990 and 990-EZ have an "Application pending" box.',
      },
      divider('exempt_divider_details'),
      heading('exempt_heading_details', 'As the IRS has it'),
      {
        name: 'account___legal_name',
        label: 'Legal name as the IRS has it',
        field_type: 'text',
        rules: 'required|max:100',
        instructions:
          'Exactly as on your determination letter or, while you wait for it, on the IRS letter that assigned your EIN (CP 575), even if you use a shorter name day to day.',
      },
      {
        name: 'account___ein',
        label: 'EIN',
        field_type: 'text',
        rules: 'required|ein',
        placeholder: '12-3456789',
        instructions: 'The nine-digit federal tax ID number on your IRS letters.',
      },
      {
        name: 'account___ruling_year',
        label: 'IRS ruling year',
        field_type: 'text',
        rules: 'required|digits:4',
        is_conditional: 'account___has_501c=1',
        placeholder: '2015',
        instructions:
          'The year your exemption was granted, on the determination letter. A group under a group exemption uses the year it was added to the group.',
      },
      {
        name: 'account___gen',
        label: 'Group exemption number (GEN)',
        field_type: 'text',
        rules: 'digits:4',
        is_conditional: 'account___has_501c=1',
        placeholder: '1234',
        instructions:
          "Only if your group is covered by another organization's group exemption (for example a national or state parent group): the four-digit number it gave you. Leave blank otherwise.",
      },
      {
        name: 'account___determination_letter',
        label: 'Your IRS determination letter (optional)',
        field_type: 'dropbox',
        is_conditional: 'account___has_501c=1',
        // The wizard fills in the application's token.
        action: '/application/upload/{token}',
        instructions:
          'A scan or photo of the letter (PDF, JPEG, PNG or Word, up to 20 MB) lets us check the details above. You can also send it later.',
      },
    ],
  },
  {
    label: 'Filings',
    description: 'Your fiscal year, income and recent IRS returns, so we file the right return on time.',
    schema: [
      ...moneyFields('filings', { hasEin: true }),
      divider('filings_divider_history'),
      heading('filings_heading_history', 'Recent IRS returns'),
      {
        name: 'account___has_filed_990s',
        label: 'Has the group filed a Form 990, 990-EZ or 990-N for each of the last three years?',
        field_type: 'radio',
        rules: 'required',
        options: [
          { value: '1', label: 'Yes' },
          { value: '0', label: 'No' },
          { value: '2', label: 'Not sure' },
        ],
      },
      {
        name: 'account___last_990_year',
        label: 'Tax year of the most recent return filed',
        field_type: 'text',
        rules: 'digits:4',
        placeholder: '2024',
        sub_label: 'Leave blank if you do not know.',
      },
      {
        name: 'filings_warning_revocation',
        field_type: 'warning',
        label: 'Three missed years means automatic revocation',
        description:
          'The IRS revokes the exemption of a group that does not file for three years in a row. Answer as best you can: we check the IRS records and tell you how to get reinstated if needed.',
      },
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Greek chapter pages

const GREEK_PAGES: WizardPage[] = [
  {
    label: 'Your chapter',
    description: "Your national organization, chapter, campus and the chapter's mailing address.",
    schema: [
      heading('chapter_heading_name', 'About your chapter'),
      {
        name: 'account___national_organization',
        label: 'National organization',
        field_type: 'greek',
        rules: 'required',
        instructions: 'The fraternity or sorority your chapter belongs to.',
      },
      {
        name: 'account___name',
        label: 'Chapter name',
        field_type: 'text',
        rules: 'required|max:100',
        placeholder: 'Beta Gamma chapter',
        instructions: 'The chapter designation your national organization uses.',
      },
      {
        name: 'account___school',
        label: 'University or campus',
        field_type: 'text',
        rules: 'required|max:100',
        placeholder: 'University of Alaska Fairbanks',
      },
      {
        name: 'account___is_house_corporation',
        label: 'This application is for the house corporation',
        field_type: 'checkbox',
        sub_label: 'The separate entity that owns or leases the chapter house. Leave unchecked for the chapter itself.',
      },
      divider('chapter_divider_address'),
      ...mailingAddress('chapter'),
    ],
  },
  officersPage({ group: 'chapter', withAdvisor: true }),
  taxStatusPage({ group: 'chapter', greek: true }),
  {
    label: 'Money',
    description:
      'Your fiscal year and how much money the chapter expects to take in: they decide which IRS return you file and when.',
    schema: moneyFields('money', { hasEin: false }),
  },
  bylawsPage({
    group: 'chapter',
    namePlaceholder: 'Beta Gamma Chapter of Sigma Chi',
    purposePlaceholder:
      'To promote the scholarship, leadership and service of its members at the university, and to support the philanthropic causes chosen by the chapter by donating the proceeds of its service events to them.',
    facilityLabel: 'University or campus supported',
    facilityPlaceholder: 'University of Alaska Fairbanks',
  }),
];

export const WIZARD_SCHEMAS: Record<WizardLevelSlug, WizardPage[]> = {
  'start-up': START_UP_PAGES,
  maintain: MAINTAIN_PAGES,
  'full-service': FULL_SERVICE_PAGES,
  'greek-chapter': GREEK_PAGES,
  // A revoked group had its determination letter: the maintain questions fit it.
  reinstatement: MAINTAIN_PAGES,
};

// ---------------------------------------------------------------------------------------------
// Sample answers (unit and end-to-end tests)

const BOOSTER_BASE = {
  account___name: 'Soldotna High School Track Boosters',
  account___school: 'Soldotna High School',
  account___street: 'PO Box 1472',
  account___city: 'Soldotna',
  account___state: 'AK',
  account___zip: '99669',
  contact___president_first_name: 'Maria',
  contact___president_last_name: 'Alvarez',
  contact___president_email: 'maria.alvarez@example.org',
  contact___president_phone: '(907) 555-0134',
  contact___treasurer_first_name: 'Dwayne',
  contact___treasurer_last_name: 'Peterson',
  contact___treasurer_email: 'dwayne.peterson@example.org',
  contact___treasurer_phone: '(907) 555-0178',
};

const BOOSTER_BYLAW_ANSWERS = {
  bylaw___name: 'Soldotna High School Track Boosters',
  bylaw___purpose:
    'To support the student athletes of the Soldotna High School track and field program by donating equipment, uniforms, meet entry fees and travel costs to the program, and by awarding scholarships to graduating team members.',
  bylaw___facility: 'Soldotna High School',
  bylaw___meeting_attendee_minimum: '10%',
  bylaw___meeting_request_minimum: '1/10',
  bylaw___nomination_month: '3', // April (0-based)
  bylaw___annual_meeting_month: '4', // May
  bylaw___is_highlighted: 1,
};

/**
 * A complete, valid answer set for a level's wizard: every shown value field of every page,
 * realistic for a booster club (start-up, maintain, full-service) or a chapter (greek-chapter).
 * Values are strings, checkboxes 1 or 0. Accounts' EINs are unique, so a test that completes
 * the same maintain application twice should pass its own `account___ein` in `overrides`.
 */
export function sampleAnswers(
  levelSlug: WizardLevelSlug,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  let answers: Record<string, unknown>;
  switch (levelSlug) {
    case 'start-up':
      answers = {
        ...BOOSTER_BASE,
        account___has_requested_exemption: '0',
        account___has_501c: '0',
        account___has_ein: 0,
        account___fiscal_year_end: '6',
        account___gross_receipts: '28000',
        ...BOOSTER_BYLAW_ANSWERS,
      };
      break;
    case 'full-service':
      answers = {
        ...BOOSTER_BASE,
        contact___secretary_first_name: 'Grace',
        contact___secretary_last_name: 'Kowalski',
        contact___secretary_email: 'grace.kowalski@example.org',
        contact___secretary_phone: '(907) 555-0191',
        account___has_requested_exemption: '0',
        account___has_501c: '0',
        account___has_ein: 1,
        account___ein: '92-4417380',
        account___fiscal_year_end: '6',
        account___gross_receipts: '64000',
        account___is_incorporated: 0,
        account___legal_name: 'Soldotna High School Track Boosters, Inc.',
        account___alternate_name: 'Soldotna Track and Field Boosters, Inc.',
        account___registered_agent: 'treasurer',
        account___solicits_public: 1,
        account___has_raffles: 1,
        ...BOOSTER_BYLAW_ANSWERS,
      };
      break;
    case 'maintain':
    case 'reinstatement':
      answers = {
        ...BOOSTER_BASE,
        account___name: 'Kenai Central Hockey Boosters',
        account___school: 'Kenai Central High School',
        account___street: '9583 Kenai Spur Highway',
        account___city: 'Kenai',
        account___zip: '99611',
        account___has_requested_exemption: '1',
        account___has_501c: '1',
        account___legal_name: 'Kenai Central Hockey Booster Club',
        account___ein: '92-0178325',
        account___ruling_year: '2012',
        account___gen: '', // not under another organization's group exemption
        account___fiscal_year_end: '5',
        account___gross_receipts: '41000',
        account___has_filed_990s: '1',
        account___last_990_year: '2024',
      };
      break;
    case 'greek-chapter':
      answers = {
        account___national_organization: 'Sigma Chi',
        account___name: 'Beta Gamma chapter',
        account___school: 'University of Alaska Fairbanks',
        account___is_house_corporation: 0,
        account___street: '1790 Yukon Drive',
        account___city: 'Fairbanks',
        account___state: 'AK',
        account___zip: '99775',
        contact___president_first_name: 'Ethan',
        contact___president_last_name: 'Nakamura',
        contact___president_email: 'ethan.nakamura@example.org',
        contact___president_phone: '(907) 555-0112',
        contact___treasurer_first_name: 'Jordan',
        contact___treasurer_last_name: 'Whitfield',
        contact___treasurer_email: 'jordan.whitfield@example.org',
        contact___treasurer_phone: '(907) 555-0167',
        contact___advisor_first_name: 'Robert',
        contact___advisor_last_name: 'Lindqvist',
        contact___advisor_email: 'robert.lindqvist@example.org',
        account___has_requested_exemption: '0',
        account___has_501c: '0',
        account___has_ein: 0,
        account___fiscal_year_end: '5',
        account___gross_receipts: '36000',
        bylaw___name: 'Beta Gamma Chapter of Sigma Chi',
        bylaw___purpose:
          'To promote the scholarship, leadership and community service of its members at the University of Alaska Fairbanks, and to donate the proceeds of its service events to the Huntsman Cancer Institute and local Fairbanks charities.',
        bylaw___facility: 'University of Alaska Fairbanks',
        bylaw___meeting_attendee_minimum: '1/2',
        bylaw___meeting_request_minimum: '10',
        bylaw___nomination_month: '2', // March (0-based)
        bylaw___annual_meeting_month: '3', // April
        bylaw___is_highlighted: 0,
      };
      break;
    default: {
      const never: never = levelSlug;
      throw new Error(`Unknown level ${String(never)}`);
    }
  }
  return { ...answers, ...overrides };
}
