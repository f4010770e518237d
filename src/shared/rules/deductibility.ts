/**
 * Publication 78 deductibility status codes (docs/irs-data.md "Publication 78 data"): what the IRS
 * says each code means for a donor. Source: IRS, "Tax Exempt Organization Search: Deductibility
 * status codes" (https://www.irs.gov/charities-non-profits/tax-exempt-organization-search-deductibility-status-codes).
 */
const PUB78_CODES: Record<string, string> = {
  PC: 'A public charity',
  POF: 'A private operating foundation',
  PF: 'A private foundation',
  GROUP:
    'A central organization holding a group exemption letter, whose subordinates covered by the group exemption are also eligible to receive tax-deductible contributions, even though they are not separately listed',
  LODGE:
    'A domestic fraternal society under the lodge system: deductible only when the contribution is used exclusively for charitable purposes',
  UNKWN: 'A charitable organization whose public charity status has not been determined',
  EO: 'An organization described in section 170(c) other than a public charity or a private foundation',
  FED: 'An organization to which contributions are deductible if made for the use of a federal governmental unit',
  FORGN: 'A foreign-addressed organization',
  SO: 'A Type I, Type II or functionally integrated Type III supporting organization',
  SONFI: 'A non-functionally integrated Type III supporting organization',
  SOUNK: 'A supporting organization of unspecified type',
};

/** An organization's place in the Publication 78 data, as the standing card shows it. */
export interface Pub78Listing {
  /** 'listed': the EIN is in the data; 'through_central': not listed, but its central organization is, with GROUP; 'not_listed'. */
  status: 'listed' | 'through_central' | 'not_listed';
  /** The organization's own codes with their meanings (empty unless listed). */
  codes: { code: string; meaning: string }[];
}

/**
 * Where an organization stands in the Publication 78 data (docs/irs-data.md "Publication 78 data").
 * A subordinate of a group exemption is usually not listed on its own: contributions to it are
 * deductible through its central organization's listing with the GROUP code.
 * @param ownCodes the codes of the organization's own entry, or null when its EIN is not in the data
 * @param centralCodes the codes of its central organization's entry (by the group's central EIN), or null
 */
export function pub78Listing(ownCodes: string[] | null, centralCodes: string[] | null): Pub78Listing {
  if (ownCodes) {
    return {
      status: 'listed',
      codes: ownCodes.map((code) => ({ code, meaning: PUB78_CODES[code] ?? `Code ${code}` })),
    };
  }
  if (centralCodes?.includes('GROUP')) return { status: 'through_central', codes: [] };
  return { status: 'not_listed', codes: [] };
}
