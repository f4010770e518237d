/**
 * The banks the built-in routing-number lookup knows (docs/requirements/calls.md third-party calls: its local
 * default). Each entry is a record of the Federal Reserve's FedACH participant directory, with
 * the name, city and state as the directory spells them, which is also what the public lookup
 * (routingnumbers.info) answers with. Kept small on purpose: the big national banks
 * testers and members are likely to type, the Federal Reserve offices, and 111000025, the routing
 * number the Authorize.Net sandbox documents for eCheck tests. Every number passes the ABA
 * checksum (known-banks.test.ts).
 */

export interface KnownBank {
  /** 9-digit ABA routing number. */
  rn: string;
  customer_name: string;
  city: string;
  state: string;
}

export const KNOWN_BANKS: readonly KnownBank[] = [
  { rn: '011000015', customer_name: 'FEDERAL RESERVE BANK', city: 'ATLANTA', state: 'GA' },
  { rn: '011000028', customer_name: 'STATE STREET BANK AND TRUST COMPANY', city: 'N. QUINCY', state: 'MA' },
  { rn: '011000138', customer_name: 'BANK OF AMERICA, N.A.', city: 'HENRICO', state: 'VA' },
  { rn: '011103093', customer_name: 'TD BANK NA', city: 'LEWISTON', state: 'ME' },
  { rn: '011500120', customer_name: 'CITIZENS BANK, NATIONAL ASSOCIATION', city: 'RIVERSIDE', state: 'RI' },
  { rn: '021000018', customer_name: 'BANK OF NEW YORK MELLON', city: 'PITTSBURGH', state: 'PA' },
  { rn: '021000021', customer_name: 'JPMORGAN CHASE', city: 'TAMPA', state: 'FL' },
  { rn: '021000089', customer_name: 'CITIBANK NA', city: 'NEW CASTLE', state: 'DE' },
  { rn: '021000322', customer_name: 'BANK OF AMERICA, N.A.', city: 'RICHMOND', state: 'VA' },
  { rn: '021001088', customer_name: 'HSBC BANK USA, N.A.', city: 'BUFFALO', state: 'NY' },
  { rn: '021001208', customer_name: 'FEDERAL RESERVE BANK', city: 'EAST RUTHERFORD', state: 'NJ' },
  { rn: '026009593', customer_name: 'BANK OF AMERICA N.A.', city: 'RICHMOND', state: 'VA' },
  { rn: '028000082', customer_name: 'CITIBANK, NA', city: 'NEW CASTLE', state: 'DE' },
  { rn: '031100089', customer_name: 'PNC BANK, NATIONAL ASSOCIATION', city: 'PITTSBURGH', state: 'PA' },
  { rn: '031100649', customer_name: 'DISCOVER BANK', city: 'NEW CASTLE', state: 'DE' },
  { rn: '031176110', customer_name: 'CAPITAL ONE N.A.', city: 'RICHMOND', state: 'VA' },
  { rn: '107001452', customer_name: 'U.S. BANK NATIONAL ASSOCIATION', city: 'ST. PAUL', state: 'MN' },
  { rn: '111000012', customer_name: 'BANK OF AMERICA, N.A.', city: 'HENRICO', state: 'VA' },
  { rn: '111000025', customer_name: 'BANK OF AMERICA, N.A.', city: 'HENRICO', state: 'VA' },
  { rn: '111000038', customer_name: 'FEDERAL RESERVE BANK', city: 'MINNEAPOLIS', state: 'MN' },
  { rn: '111000614', customer_name: 'JPMORGAN CHASE', city: 'TAMPA', state: 'FL' },
  { rn: '121000248', customer_name: 'WELLS FARGO BANK, NA', city: 'MINNEAPOLIS', state: 'MN' },
  { rn: '121000358', customer_name: 'BANK OF AMERICA, N.A.', city: 'HENRICO', state: 'VA' },
  { rn: '121000374', customer_name: 'FEDERAL RESERVE BANK', city: 'MINNEAPOLIS', state: 'MN' },
  { rn: '121042882', customer_name: 'WELLS FARGO BANK NA', city: 'MINNEAPOLIS', state: 'MN' },
  { rn: '122100024', customer_name: 'JPMORGAN CHASE', city: 'TAMPA', state: 'FL' },
  { rn: '122105278', customer_name: 'WELLS FARGO BANK NA (ARIZONA)', city: 'MINNEAPOLIS', state: 'MN' },
];
