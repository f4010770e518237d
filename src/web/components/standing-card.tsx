import { Alert, Anchor, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { MONTH_NAMES } from '../../shared/lists/months.ts';
import { longDate as calendarLongDate } from '../../shared/rules/compliance-calendar.ts';
import { LETTER_STATES, periodText, releaseDateText, type StandingState } from '../../shared/rules/standing.ts';
import type { PublicProfile } from '../../shared/schemas/search.ts';
import type { ReactNode } from 'react';

const STANDING_COLOR: Record<StandingState, string> = {
  not_listed: 'gray',
  not_required: 'green',
  group_return: 'green',
  unknown_requirement: 'gray',
  terminated: 'gray',
  unless_extended: 'yellow',
  good: 'green',
  no_return_seen: 'yellow',
  reinstated: 'green',
  missed_one: 'yellow',
  missed_two: 'orange',
  past_revocation_date: 'red',
  revoked: 'red',
};

const longDate = (iso: string | null) => (iso ? calendarLongDate(iso) : '');
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const inDays = (days: number) =>
  days === 0
    ? 'today'
    : days > 0
      ? `in ${days} day${days === 1 ? '' : 's'}`
      : `${-days} day${days === -1 ? '' : 's'} ago`;

/** The badge of a standing, colored by its urgency. */
export function StandingBadge({
  state,
  label,
  size = 'xl',
}: {
  state: StandingState;
  label: string;
  size?: 'md' | 'lg' | 'xl';
}) {
  // Long labels wrap on a phone instead of being cut off.
  return (
    <Badge
      size={size}
      color={STANDING_COLOR[state]}
      variant="filled"
      data-standing={state}
      style={{ maxWidth: '100%', height: 'auto', paddingBlock: 4 }}
      styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
    >
      {label}
    </Badge>
  );
}

/** One labelled fact of a profile; an empty value shows as a dash. */
export function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
        {label}
      </Text>
      <Text>{value || '—'}</Text>
    </div>
  );
}

const RETURN_STATUS_TEXT: Record<PublicProfile['irs']['returns'][number]['status'], string> = {
  missed: 'missed',
  missed_unless_extended: 'due date passed; missed unless extended',
  awaiting_data: 'due since the IRS data was released, not shown in it yet',
  extended: 'extended',
};

/** One return owed in words: its period, due date, extension and where it stands. */
function returnText(r: PublicProfile['irs']['returns'][number]): string {
  const due =
    r.extension === 'recorded' && r.extended_due
      ? `due ${longDate(r.extended_due)} with the extension recorded`
      : r.extension === 'possible' && r.extended_due
        ? `due ${longDate(r.due)}, or ${longDate(r.extended_due)} if extended`
        : `due ${longDate(r.due)}`;
  return `${capitalized(periodText(r.period_end))}: ${due}; ${RETURN_STATUS_TEXT[r.status]}`;
}

/** The tax year as people say it: by the month its fiscal year ends. */
function taxYearLabel(year: number, fyeMonth: number | null) {
  return fyeMonth ? `year ending ${MONTH_NAMES[fyeMonth - 1]} ${year}` : String(year);
}

/** The Publication 78 fact in words (docs/irs-data.md "Publication 78 data"). */
function pub78Text(p: NonNullable<PublicProfile['irs']['pub78']>): string {
  if (p.status === 'listed') return `Listed: ${p.codes.map((c) => `${c.meaning} (${c.code})`).join('; ')}`;
  if (p.status === 'through_central')
    return "Not listed on its own: covered by its central organization's group listing (GROUP)";
  return 'Not listed';
}

/**
 * A group's standing with the IRS (docs/irs-standing.md): the revocation countdown, the returns
 * missed, the next due date and the IRS facts, each source cited with its release date; with
 * `letterUrl`, a download of the good-standing letter while the state allows one; with
 * `extensions`, the account pages' Form 8868 extensions under the returns (docs/irs-standing.md
 * "Extensions"); with `reinstatement`, a revoked organization's way back under its notice
 * (docs/irs-standing.md "Reinstatement"). The public profile shows neither.
 */
export function StandingCard({
  state,
  irs,
  letterUrl,
  title,
  extensions,
  reinstatement,
}: {
  state: StandingState;
  irs: PublicProfile['irs'];
  letterUrl?: string;
  /** Makes the card a titled section with the badge (the account pages); the profile has its own heading. */
  title?: { id: string; text: string; label: string };
  /** The extensions and the action recording one, on the group's and staff's account pages. */
  extensions?: ReactNode;
  /** "Getting the exemption back" of a revoked organization, on the group's and staff's account pages. */
  reinstatement?: ReactNode;
}) {
  const fye = irs.fiscal_year_end_month;
  const missed = irs.missed_tax_years.map((y) => taxYearLabel(y, fye)).join(', ');
  const sources = [
    irs.sources.bmf && `the EO Business Master File released ${releaseDateText(irs.sources.bmf)}`,
    irs.sources.epostcard && `the Form 990-N data released ${releaseDateText(irs.sources.epostcard)}`,
    irs.sources.revocations && `the Automatic Revocation List released ${releaseDateText(irs.sources.revocations)}`,
    irs.sources.pub78 && `the Publication 78 data released ${releaseDateText(irs.sources.pub78)}`,
  ].filter(Boolean);
  const latestFiled = irs.latest_period_filed ? periodText(irs.latest_period_filed) : null;
  const unlessExtended = irs.returns.find((r) => r.status === 'missed_unless_extended');
  return (
    <Card withBorder padding="xl" {...(title ? { component: 'section' as const, 'aria-labelledby': title.id } : {})}>
      <Stack gap="md">
        {title && (
          <Group justify="space-between" wrap="wrap">
            <Title order={2} size="h3" id={title.id}>
              {title.text}
            </Title>
            <StandingBadge state={state} label={title.label} size="lg" />
          </Group>
        )}
        {state === 'not_listed' && (
          <Text>
            The IRS data loaded does not list this organization. A group appears there once the IRS has recognized its
            exemption; until then no annual return is tracked here.
          </Text>
        )}
        {state === 'no_return_seen' && (
          <Alert color="yellow" title="No annual return in the IRS data yet">
            The IRS data shows no annual return from this subordinate. The recognition date it lists is the group
            exemption's, not the day the subordinate joined, so which years it owes is not known here. It owes{' '}
            {irs.return_owed.replace(/ every year$/, '') || 'an annual return'} for each year it has been in the group:
            file any missing one now. {irs.late_cost}
          </Alert>
        )}
        {state === 'revoked' && irs.revoked_on && (
          <Alert color="red" title="Exemption revoked">
            The IRS lists this organization as automatically revoked on {longDate(irs.revoked_on)} for not filing an
            annual return for three years in a row. It is not exempt, and gifts to it are not deductible, until the IRS
            reinstates it, which takes a new application (Rev. Proc. 2014-11). The list gives the revocation date the
            law sets, the 15th day of the 5th month after the year ended, not moved for a weekend or holiday as the due
            dates on this page are.
          </Alert>
        )}
        {state === 'revoked' && reinstatement}
        {state === 'past_revocation_date' && irs.revocation_date && (
          <Alert color="red" title={`Revocation date passed: ${longDate(irs.revocation_date)}`}>
            {latestFiled
              ? `The IRS data shows no return after the ${latestFiled}.`
              : 'The IRS data shows no return filed.'}{' '}
            Unless the missing returns were filed by {longDate(irs.revocation_date)}
            {irs.revocation_date_if_extended
              ? ` (or by ${longDate(irs.revocation_date_if_extended)}, had the third one been extended with Form 8868)`
              : ''}
            , the exemption was revoked by law that day, and the IRS will list it as revoked. If they were not, filing
            them now does not undo it: the organization must apply to the IRS for reinstatement.
          </Alert>
        )}
        {(state === 'missed_one' || state === 'missed_two') &&
          irs.revocation_date &&
          irs.days_to_revocation !== null && (
            <Alert
              color={state === 'missed_two' ? 'orange' : 'yellow'}
              title={`Revoked on ${longDate(irs.revocation_date)} if no return is filed (${inDays(irs.days_to_revocation)})`}
            >
              {state === 'missed_two'
                ? 'Two returns in a row are missing, so the IRS sends a notice before the third. A late return still counts: file the missing years now.'
                : 'One return is missing. A late return still counts: file it now.'}{' '}
              {irs.late_cost}
            </Alert>
          )}
        {state === 'unless_extended' && unlessExtended && (
          <Alert color="yellow" title="Due date passed: missed unless extended">
            The return for the {periodText(unlessExtended.period_end)} was due {longDate(unlessExtended.due)}. The IRS
            data shows none, but Form 8868 gives six more months, to {longDate(unlessExtended.extended_due)}: if the
            extension was filed by the due date, the return is due then (
            {extensions ? 'record it below' : 'the group can record it on its account page'}); if not, it is missed.{' '}
            {irs.late_cost}
          </Alert>
        )}
        {state === 'group_return' && (
          <Text>
            Its central organization files a group return that includes it, so it files no annual return of its own.
          </Text>
        )}
        {state === 'not_required' && (
          <Text>The IRS data lists it as not required to file an annual return: {irs.filing_requirement}.</Text>
        )}
        {state === 'unknown_requirement' && <Text>{irs.return_owed}. Ask the IRS which return it owes.</Text>}
        {state === 'terminated' && (
          <Alert color="gray" title="Terminated">
            Its latest Form 990-N told the IRS the organization has terminated, so no further return is tracked.
          </Alert>
        )}
        {state === 'reinstated' && irs.reinstated_on && (
          <Alert color="green" title="Reinstated">
            The IRS reinstated this organization's exemption on {longDate(irs.reinstated_on)}.
          </Alert>
        )}
        {state !== 'not_listed' && (
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="lg">
            {/* A revoked organization is not exempt until reinstated, whatever an older BMF row said (Rev. Proc. 2014-11). */}
            <Fact
              label="IRS status"
              value={state === 'revoked' ? 'Revoked: not exempt until the IRS reinstates it' : irs.status_meaning}
            />
            <Fact label="Annual return owed" value={irs.return_owed} />
            <Fact label="Fiscal year ends" value={fye ? MONTH_NAMES[fye - 1] : ''} />
            <Fact label="Latest return on file" value={latestFiled ? capitalized(latestFiled) : 'None on file'} />
            <Fact label="Missed returns" value={missed || 'None'} />
            <Fact
              label="Next return due"
              value={irs.next_due ? `${longDate(irs.next_due.due)} (${inDays(irs.next_due.days_left)})` : ''}
            />
            {irs.pub78 && <Fact label="Deductible contributions (Publication 78)" value={pub78Text(irs.pub78)} />}
          </SimpleGrid>
        )}
        {irs.returns.length > 0 && (
          <div>
            <Text size="sm" fw={700}>
              Returns past their due date
            </Text>
            <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
              {irs.returns.map((r) => (
                <li key={r.period_end}>
                  <Text size="sm">{returnText(r)}</Text>
                </li>
              ))}
            </ul>
          </div>
        )}
        {extensions}
        {letterUrl && LETTER_STATES.includes(state) && (
          <Group>
            <Button component="a" href={letterUrl} download variant="light">
              Download good-standing letter (PDF)
            </Button>
          </Group>
        )}
        <Text size="sm" c="dimmed">
          {sources.length
            ? `Per IRS data: ${sources.join('; ')}.`
            : 'No IRS data about this organization has been loaded.'}{' '}
          Rules:{' '}
          <Anchor
            href="https://www.irs.gov/charities-non-profits/annual-electronic-filing-requirement-for-small-exempt-organizations-form-990-n-e-postcard"
            target="_blank"
            rel="noopener noreferrer"
          >
            Form 990-N
          </Anchor>
          ,{' '}
          <Anchor
            href="https://www.irs.gov/charities-non-profits/automatic-revocation-of-exemption"
            target="_blank"
            rel="noopener noreferrer"
          >
            automatic revocation
          </Anchor>
          .
        </Text>
      </Stack>
    </Card>
  );
}
