/**
 * Reference rows for a new installation: the company, the levels of docs/requirements/entities.md "Level", and the
 * per-state requirements of docs/requirements/entities.md "State requirement". Amounts are integer cents.
 */

export const COMPANY = { name: 'GoodStanding', phone: '(888) 555-0142', email: 'help@goodstanding.example' };

export const LEVELS = [
  {
    slug: 'start-up',
    name: 'Start-up with tax exemption',
    description:
      'For a new group: EIN, bylaws, IRS tax exemption under our group exemption, and the first year of compliance.',
    priceCents: 69500,
    priceDiscountCents: 64500,
    renewalFeatures: [
      'Form 990-N (e-Postcard) filed for you',
      'Listing under our IRS group exemption',
      'State registration reminders',
      'Compliance calendar and e-mail reminders',
    ],
    sortOrder: 1,
  },
  {
    slug: 'maintain',
    name: 'Maintain an existing exemption',
    description: 'For a group that already has its 501(c) letter: we keep it in good standing every year.',
    priceCents: 34500,
    priceDiscountCents: 29500,
    renewalFeatures: [
      'Form 990-N (e-Postcard) filed for you',
      'State annual report reminders',
      'Compliance calendar and e-mail reminders',
    ],
    sortOrder: 2,
  },
  {
    slug: 'full-service',
    name: 'Full service with incorporation',
    description:
      'Everything in start-up, plus state incorporation, registered agent guidance and state charitable registration.',
    priceCents: 99500,
    priceDiscountCents: 92500,
    renewalFeatures: [
      'Form 990-N or 990-EZ prepared for you',
      'State annual report filed for you',
      'Charitable solicitation registration renewals',
      'Priority support',
    ],
    sortOrder: 3,
  },
  {
    slug: 'greek-chapter',
    name: 'Greek chapter',
    description:
      'For fraternity and sorority chapters and house corporations, coordinated with your national organization.',
    priceCents: 29500,
    priceDiscountCents: 24500,
    renewalFeatures: [
      'Form 990-N (e-Postcard) filed for you',
      'Good-standing letter for your campus',
      'Officer transition checklist',
    ],
    sortOrder: 4,
  },
  {
    // The way back after an automatic revocation (docs/irs-standing.md "Reinstatement"): the
    // revoked standing card links here.
    slug: 'reinstatement',
    name: 'Reinstatement application',
    description:
      'For a group the IRS revoked for not filing three years in a row: we find the Rev. Proc. 2014-11 path that fits, prepare the application and the late returns it needs, and keep you filing once the IRS reinstates you. The IRS user fee is paid to the IRS.',
    priceCents: 59500,
    priceDiscountCents: 59500,
    renewalFeatures: [
      'Reinstatement application prepared for you (Form 1023, 1023-EZ or 1024)',
      'Late Form 990-EZ, 990 or 990-N returns prepared',
      'Compliance calendar and e-mail reminders',
    ],
    sortOrder: 5,
  },
] as const;

/** Upgrade targets: start-up and maintain upgrade to full service (with an incorporation package). */
export const UPGRADES: Record<
  string,
  {
    to: string;
    upgradeCents: number;
    upgradeDiscountCents: number;
    incPackageCents: number;
    incPackageDiscountCents: number;
  }
> = {
  'start-up': {
    to: 'full-service',
    upgradeCents: 30000,
    upgradeDiscountCents: 25000,
    incPackageCents: 25000,
    incPackageDiscountCents: 20000,
  },
  maintain: {
    to: 'full-service',
    upgradeCents: 65000,
    upgradeDiscountCents: 60000,
    incPackageCents: 25000,
    incPackageDiscountCents: 25000,
  },
};

/**
 * [code, yearly maintain estimate in dollars, articles-of-incorporation estimate in dollars, note].
 * Estimates of state fees for a small nonprofit (annual report and charitable registration, and
 * the filing fee for nonprofit articles); they change, and the page says so.
 */
export const STATE_REQUIREMENTS: [string, number, number, string][] = [
  ['AL', 10, 200, 'Charitable registration with the Attorney General when soliciting.'],
  ['AK', 50, 50, 'Biennial report due January 2.'],
  ['AZ', 10, 40, 'Annual report due on the incorporation anniversary.'],
  ['AR', 0, 50, 'Charitable registration when receiving over $25,000.'],
  ['CA', 75, 30, 'Statement of Information every two years; RRF-1 yearly with the Attorney General.'],
  ['CO', 10, 50, 'Periodic report yearly; charitable registration $10.'],
  ['CT', 50, 50, 'Annual report $50; charity registration $50.'],
  ['DE', 25, 89, 'Annual report due March 1.'],
  ['DC', 80, 80, 'Biennial report $80.'],
  ['FL', 61, 70, 'Annual report due May 1; solicitation registration by revenue.'],
  ['GA', 30, 100, 'Annual registration due April 1.'],
  ['HI', 5, 50, 'Annual report $5.'],
  ['ID', 0, 30, 'Annual report, no fee for nonprofits.'],
  ['IL', 25, 50, 'Annual report $10; charity registration $15.'],
  ['IN', 10, 50, 'Business entity report every two years.'],
  ['IA', 5, 20, 'Biennial report.'],
  ['KS', 60, 20, 'Annual report $40; charitable registration $20.'],
  ['KY', 15, 8, 'Annual report due June 30.'],
  ['LA', 10, 75, 'Annual report due on the anniversary date.'],
  ['ME', 35, 40, 'Annual report due June 1.'],
  ['MD', 0, 170, 'Annual report, no fee for nonprofits; charitable registration by revenue.'],
  ['MA', 50, 35, 'Annual report $15; Form PC with the Attorney General.'],
  ['MI', 20, 20, 'Annual report due October 1.'],
  ['MN', 25, 70, 'Annual renewal; charitable registration $25.'],
  ['MS', 25, 50, 'Annual report; charity registration $50 when soliciting.'],
  ['MO', 15, 25, 'Annual registration report.'],
  ['MT', 20, 35, 'Annual report due April 15.'],
  ['NE', 20, 10, 'Biennial report in odd years.'],
  ['NV', 50, 50, 'Annual list of officers $25 and charitable registration.'],
  ['NH', 100, 25, 'Annual report every five years; charitable trust report yearly.'],
  ['NJ', 30, 75, 'Annual report $30; charity registration by revenue.'],
  ['NM', 10, 25, 'Biennial report; charitable registration free.'],
  ['NY', 25, 75, 'CHAR500 annual filing with the Charities Bureau.'],
  ['NC', 50, 60, 'Charitable solicitation license by revenue.'],
  ['ND', 35, 40, 'Annual report due February 1.'],
  ['OH', 50, 99, 'Annual charitable registration with the Attorney General.'],
  ['OK', 15, 25, 'Charitable registration $15.'],
  ['OR', 50, 50, 'Annual report $50; CT-12 with the Attorney General.'],
  ['PA', 15, 125, 'Decennial report; charitable registration by revenue.'],
  ['RI', 90, 35, 'Annual report $50; charitable registration $90.'],
  ['SC', 50, 25, 'Charitable registration $50.'],
  ['SD', 10, 30, 'Annual report $10.'],
  ['TN', 70, 100, 'Annual report $20; charitable registration $50.'],
  ['TX', 0, 25, 'No annual report unless requested; franchise tax exemption.'],
  ['UT', 30, 30, 'Annual renewal $10; charitable permit.'],
  ['VT', 35, 125, 'Annual report $35.'],
  ['VA', 50, 75, 'Annual registration fee $25; charitable registration.'],
  ['WA', 70, 30, 'Annual report $20; charity registration $60.'],
  ['WV', 25, 25, 'Annual report $25.'],
  ['WI', 25, 35, 'Annual report $10; charitable registration $15.'],
  ['WY', 25, 50, 'Annual report $25.'],
];

export const DEMO_BANNERS = [
  {
    kind: 'holiday-alert',
    text: 'Our office is closed Thursday and Friday for Thanksgiving. Messages sent during the holiday are answered on Monday.',
    isActive: true,
  },
  {
    kind: 'urgent-alert',
    text: 'Form 990-N filings for fiscal years ending in June are due November 15. File now to avoid revocation.',
    isActive: false,
  },
] as const;
