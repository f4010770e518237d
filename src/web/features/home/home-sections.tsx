import { Anchor, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PaymentStatusBadge } from '../../components/payment-status.tsx';
import { StandingBadge } from '../../components/standing-card.tsx';
import { boot } from '../../lib/boot.ts';
import { showDate } from '../../lib/locale.ts';
import { LetterAwaited } from './letter-awaited.tsx';
import type { HomeDeadline, HomeSummary } from '../../../shared/schemas/home.ts';
import type { ReactNode } from 'react';

const BYLAW_NAMES: Record<HomeSummary['documents']['bylaws'][number]['variant'], string> = {
  standard: 'Bylaws',
  school: 'School booster bylaws',
  short: 'Short bylaws',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function daysLeftText(d: HomeDeadline): { text: string; color: string } {
  if (d.filed) return { text: 'Filed', color: 'green' };
  if (d.days_left < 0) return { text: `${plural(-d.days_left, 'day')} overdue`, color: 'red' };
  if (d.days_left === 0) return { text: 'Due today', color: 'red' };
  return {
    text: `In ${plural(d.days_left, 'day')}`,
    color: d.days_left <= 7 ? 'red' : d.days_left <= 30 ? 'orange' : 'gray',
  };
}

const deadlineName = (d: HomeDeadline) => (d.kind === 'renewal' ? `${boot.company.name} renewal` : d.label);

/** One titled card of the home; `action` sits beside the title. */
function Section({
  id,
  title,
  action,
  children,
}: {
  id: string;
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="center" mb="sm" gap="xs" wrap="wrap">
        <Title order={2} size="h3" id={id}>
          {title}
        </Title>
        {action}
      </Group>
      {children}
    </Card>
  );
}

/** What a section says when it has nothing to show: what to do next. */
function Empty({ children }: { children: ReactNode }) {
  return <Text c="gray.7">{children}</Text>;
}

const listStyle = { listStyle: 'none', padding: 0, margin: 0 } as const;

/** Where the group stands with the IRS, in one line, with the way to the details. */
export function StandingSection({ home, detailsTo }: { home: HomeSummary; detailsTo: string }) {
  const s = home.standing;
  if (!s) return null;
  return (
    <Section id="home-standing" title="Standing with the IRS">
      <Stack gap="sm" align="flex-start">
        <StandingBadge state={s.state} label={s.label} size="lg" />
        {s.missed_tax_years.length > 0 && (
          <Text>
            The IRS has no return on file for {plural(s.missed_tax_years.length, 'tax year')}:{' '}
            {s.missed_tax_years.join(', ')}.
          </Text>
        )}
        {s.revocation_date && s.days_to_revocation !== null && s.days_to_revocation >= 0 && (
          <Text c="red.9" fw={600}>
            The exemption is revoked on {longDate(s.revocation_date)} unless a return is filed.
          </Text>
        )}
        {s.state === 'not_listed' && (
          <Text c="gray.7">
            The IRS data does not list the group yet. It appears here once the IRS adds it to its files.
          </Text>
        )}
        {home.letter_awaited && <LetterAwaited letter={home.letter_awaited} canUpload={!home.on_behalf} />}
        <Anchor component={Link} to={detailsTo}>
          See the IRS facts behind this
        </Anchor>
      </Stack>
    </Section>
  );
}

/** The next deadline first, then the rest of the compliance calendar. */
export function DeadlinesSection({
  home,
  calendarTo,
  isStaff,
}: {
  home: HomeSummary;
  calendarTo: string;
  isStaff: boolean;
}) {
  const next = home.next_deadline;
  // next_deadline arrives as an object of its own: compare by what it is.
  const rest = home.deadlines.filter(
    (d) => !next || d.kind !== next.kind || d.due !== next.due || d.label !== next.label,
  );
  return (
    <Section id="home-deadlines" title="What is due">
      {!next ? (
        <Empty>
          No deadlines on file.{' '}
          {isStaff ? (
            'Add the fiscal year end month to the account so its Form 990 due date shows.'
          ) : (
            <>
              Add your fiscal year end in{' '}
              <Anchor component={Link} to={calendarTo} inherit>
                your account
              </Anchor>{' '}
              and your Form 990 due date shows here.
            </>
          )}
        </Empty>
      ) : (
        <Stack gap="sm">
          <div>
            <Text size="xs" tt="uppercase" fw={700} c="gray.7">
              Next deadline
            </Text>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text fw={700}>{deadlineName(next)}</Text>
                <Text size="sm" c="gray.7">
                  Due {longDate(next.due)}
                </Text>
              </div>
              <Badge color={daysLeftText(next).color} variant="light" style={{ flexShrink: 0 }}>
                {daysLeftText(next).text}
              </Badge>
            </Group>
          </div>
          {rest.length > 0 && (
            <Stack gap={6} component="ul" style={listStyle} aria-label="Later deadlines">
              {rest.map((d) => (
                <Group
                  component="li"
                  key={`${d.kind}-${d.due}`}
                  justify="space-between"
                  wrap="nowrap"
                  align="flex-start"
                >
                  <div>
                    <Text size="sm" fw={600}>
                      {deadlineName(d)}
                    </Text>
                    <Text size="sm" c="gray.7">
                      Due {longDate(d.due)}
                    </Text>
                  </div>
                  <Badge color={daysLeftText(d).color} variant="light" style={{ flexShrink: 0 }}>
                    {daysLeftText(d).text}
                  </Badge>
                </Group>
              ))}
            </Stack>
          )}
          {!isStaff && (
            <Anchor component={Link} to={calendarTo} size="sm">
              Your full compliance calendar
            </Anchor>
          )}
        </Stack>
      )}
    </Section>
  );
}

/** Unpaid invoices with one button to the billing screen. */
export function InvoicesSection({ home, withAccount }: { home: HomeSummary; withAccount: (path: string) => string }) {
  return (
    <Section
      id="home-invoices"
      title="Invoices to pay"
      action={
        home.payable_cents > 0 && (
          <Button component={Link} to={withAccount('/app/payments')}>
            Pay {formatCurrency(home.payable_cents)}
          </Button>
        )
      }
    >
      {home.invoices.length === 0 ? (
        <Empty>No invoices to pay. Receipts of past payments are under Documents.</Empty>
      ) : (
        <Stack gap="sm" component="ul" style={listStyle}>
          {home.invoices.map((i) => (
            <Group component="li" key={i.id} justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Anchor component={Link} to={withAccount(`/app/invoices/show/${i.id}`)} fw={600}>
                  Invoice {i.number}
                </Anchor>
                <Text size="sm" c="gray.7">
                  Dated {showDate(i.document_at)}
                </Text>
              </div>
              <Stack gap={2} align="flex-end">
                <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  {formatCurrency(i.balance_cents)}
                </Text>
                {i.is_processing && (
                  <Badge color="gray" variant="light">
                    Payment processing
                  </Badge>
                )}
              </Stack>
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** Drafts of the account's users: only the one who started a draft can continue it. */
export function ApplicationsSection({ home }: { home: HomeSummary }) {
  return (
    <Section id="home-applications" title="Applications in progress">
      {home.applications.length === 0 ? (
        <Empty>
          No application in progress — start one from{' '}
          <Anchor component={Link} to="/pricing" inherit>
            Pricing
          </Anchor>
          .
        </Empty>
      ) : (
        <Stack gap="sm" component="ul" style={listStyle}>
          {home.applications.map((a) => (
            <Group component="li" key={a.id} justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text fw={600}>{a.level}</Text>
                <Text size="sm" c="gray.7">
                  {a.is_mine ? 'Started by you' : `Started by ${a.started_by}`} · last saved {showDate(a.updated_at)}
                </Text>
              </div>
              {a.is_mine ? (
                <Button
                  component={Link}
                  to={`/application/create/${a.id}`}
                  variant="light"
                  size="xs"
                  aria-label={`Continue your ${a.level} application`}
                >
                  Continue
                </Button>
              ) : (
                <Badge variant="light" color="blue" style={{ flexShrink: 0 }}>
                  In progress
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** Bylaws, receipts and the good-standing letter. */
export function DocumentsSection({ home, withAccount }: { home: HomeSummary; withAccount: (path: string) => string }) {
  const { bylaws, receipts, standing_letter: letter } = home.documents;
  return (
    <Section id="home-documents" title="Documents">
      <Stack gap="md">
        <div>
          <Title order={3} size="h5" mb={4}>
            Good-standing letter
          </Title>
          {letter.available ? (
            <Button component="a" href={letter.url} variant="light" size="xs">
              Download the good-standing letter (PDF)
            </Button>
          ) : (
            <Empty>
              A good-standing letter can be downloaded here once the IRS data shows the group in good standing.
            </Empty>
          )}
        </div>
        <div>
          <Title order={3} size="h5" mb={4}>
            Bylaws
          </Title>
          {bylaws.length === 0 ? (
            <Empty>
              No bylaws yet — make them in a few minutes with the{' '}
              <Anchor component={Link} to="/bylaws-generator" inherit>
                bylaws generator
              </Anchor>
              .
            </Empty>
          ) : (
            <Stack gap={6} component="ul" style={listStyle}>
              {bylaws.map((b) => (
                <Group component="li" key={b.hash} justify="space-between" wrap="wrap" gap="xs">
                  <Text size="sm">
                    <Text span fw={600} inherit>
                      {BYLAW_NAMES[b.variant]}
                    </Text>{' '}
                    · saved {showDate(b.updated_at)}
                  </Text>
                  <Group gap="sm">
                    <Anchor component={Link} to={`/bylaws-generator/preview/${b.hash}`} size="sm">
                      Preview
                    </Anchor>
                    <Anchor href={`/bylaws-generator/download/${b.hash}`} size="sm">
                      Download (.docx)
                    </Anchor>
                  </Group>
                </Group>
              ))}
            </Stack>
          )}
        </div>
        <div>
          <Title order={3} size="h5" mb={4}>
            Receipts
          </Title>
          {receipts.length === 0 ? (
            <Empty>No receipts yet. A receipt appears here after each payment.</Empty>
          ) : (
            <Stack gap={6} component="ul" style={listStyle}>
              {receipts.map((r) => (
                <Group component="li" key={r.id} justify="space-between" wrap="wrap" gap="xs">
                  <Group gap="xs">
                    <Anchor component={Link} to={withAccount(`/app/payments/receipt/${r.id}`)} size="sm">
                      Receipt of {showDate(r.created_at)}
                    </Anchor>
                    <PaymentStatusBadge status={r.status} />
                  </Group>
                  <Text size="sm" fw={600} style={{ fontVariantNumeric: 'tabular-nums' }}>
                    {formatCurrency(r.amount_cents)}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
          {receipts.length > 0 && (
            <Anchor component={Link} to={withAccount('/app/finances')} size="sm" mt={6} display="inline-block">
              All payments
            </Anchor>
          )}
        </div>
      </Stack>
    </Section>
  );
}

export function UsersSection({ home, withAccount }: { home: HomeSummary; withAccount: (path: string) => string }) {
  return (
    <Section
      id="home-users"
      title="Users"
      action={
        <Anchor component={Link} to={withAccount('/app/account/users')} size="sm">
          Manage users
        </Anchor>
      }
    >
      {home.users.length === 0 ? (
        <Empty>No users yet — add the people who help run the group on the Users page.</Empty>
      ) : (
        <Stack gap={6} component="ul" style={listStyle}>
          {home.users.map((u) => (
            <Group component="li" key={u.id} justify="space-between" wrap="wrap" gap="xs">
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={600}>
                  {u.name}
                </Text>
                <Text size="sm" c="gray.7" style={{ overflowWrap: 'anywhere' }}>
                  {u.email}
                </Text>
              </div>
              {u.is_primary && (
                <Badge variant="light" size="sm">
                  Primary user
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Section>
  );
}
