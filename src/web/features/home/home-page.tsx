import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { groupHomeContracts } from '../../../shared/contracts/group-home.ts';
import { groupWorkspaceContracts } from '../../../shared/contracts/group-workspace.ts';
import { longDate } from '../../../shared/rules/compliance-calendar.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { PaymentStatusBadge } from '../../components/payment-status.tsx';
import { StandingBadge } from '../../components/standing-card.tsx';
import { boot } from '../../lib/boot.ts';
import { call, HttpFailure } from '../../lib/http.ts';
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
function StandingSection({ home, detailsTo }: { home: HomeSummary; detailsTo: string }) {
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
function DeadlinesSection({ home, calendarTo, isStaff }: { home: HomeSummary; calendarTo: string; isStaff: boolean }) {
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
function InvoicesSection({ home, withAccount }: { home: HomeSummary; withAccount: (path: string) => string }) {
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
function ApplicationsSection({ home }: { home: HomeSummary }) {
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
function DocumentsSection({ home, withAccount }: { home: HomeSummary; withAccount: (path: string) => string }) {
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

function UsersSection({ home, withAccount }: { home: HomeSummary; withAccount: (path: string) => string }) {
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

/** The central organizations whose workspace the signed-in user may open (GET /api/app/groups). */
function useWorkspaces() {
  return useQuery({
    queryKey: ['app-groups'],
    queryFn: () => call(groupWorkspaceContracts.list, {}),
    enabled: !!boot.user,
    retry: false,
  });
}

/**
 * The way to the central organization's workspace (docs/roles.md "Central organizations"), for a
 * signed-in user who is a user of at least one group (GET /api/app/groups); nothing for anyone
 * else, staff without a group of their own included.
 */
function WorkspaceCard() {
  const q = useWorkspaces();
  const count = q.data?.data.length ?? 0;
  if (count === 0) return null;
  return (
    <Card withBorder padding="md" mb="lg" component="section" aria-labelledby="home-workspace">
      <Group justify="space-between" align="center" gap="xs" wrap="wrap">
        <div>
          <Title order={2} size="h4" id="home-workspace">
            Your central organization’s workspace
          </Title>
          <Text size="sm" c="gray.7">
            {count === 1
              ? `${q.data?.data[0].label}: check your chapters’ standing with the IRS and see who can open it.`
              : `${count} central organizations: check their chapters’ standing with the IRS and see who can open them.`}
          </Text>
        </div>
        <Button component={Link} to="/app/group" variant="light" style={{ flex: 'none' }}>
          Open the workspace
        </Button>
      </Group>
    </Card>
  );
}

/**
 * /app, the group's home (docs/app-home.md): where the group stands with the IRS and what is due
 * next, what is unpaid (with a button to pay it), the applications in progress, its documents and
 * its users, from GET /api/app/home. Staff open an account's home with `?account_id=` (from the
 * staff page of the account); every link then keeps that account. A user of a central
 * organization also finds the way to its workspace (WorkspaceCard, docs/roles.md "Central organizations").
 */
export default function HomePage() {
  const [params] = useSearchParams();
  const isStaff = !!boot.user?.isAdmin;
  const requested = /^[1-9]\d{0,9}$/.test(params.get('account_id') ?? '') ? Number(params.get('account_id')) : null;
  const needsChoice = isStaff && requested === null && !boot.user?.accountId;
  const workspaces = useWorkspaces();
  const q = useQuery({
    queryKey: ['app-home', requested],
    queryFn: () => call(groupHomeContracts.home, { query: requested ? { account_id: requested } : {} }),
    enabled: !needsChoice,
    retry: false,
  });

  if (needsChoice) {
    return (
      <>
        <PageHeader title="Your group" />
        <WorkspaceCard />
        <Alert color="blue" title="Choose an account">
          Staff see a group’s home by opening the account and choosing “Open the group’s home”.{' '}
          <Anchor component={Link} to="/admin/accounts" inherit>
            Go to the accounts
          </Anchor>
        </Alert>
      </>
    );
  }
  if (q.isPending)
    return (
      <>
        <PageHeader title="Your group" />
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      </>
    );
  if (q.isError) {
    const missing = q.error instanceof HttpFailure && q.error.status === 404;
    return (
      <>
        <PageHeader title="Your group" />
        <Alert color="red">
          {missing
            ? 'This account could not be found.'
            : 'Your group’s home could not be loaded. Please reload the page.'}
        </Alert>
      </>
    );
  }

  const home = q.data;
  const acting = home.on_behalf && home.account ? home.account.id : null;
  const withAccount = (path: string) => (acting ? `${path}?account_id=${acting}` : path);
  const firstName = boot.user?.firstName;

  if (!home.account) {
    return (
      <>
        <PageHeader title="Your group" lead={`Welcome${firstName ? `, ${firstName}` : ''}.`} />
        <WorkspaceCard />
        {workspaces.data?.data.length ? (
          <Alert mb="lg" title="No organization of your own">
            This sign-in opens your central organization’s workspace. It is not linked to a group of its own: if your
            group needs one, start an application, and its standing, deadlines, invoices and documents then appear here.
          </Alert>
        ) : (
          <Alert mb="lg" title="Your group is not set up yet">
            This sign-in is not linked to an organization yet. Finish and submit your application: your group’s
            standing, deadlines, invoices and documents then appear here.
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ApplicationsSection home={home} />
          <DocumentsSection home={home} withAccount={withAccount} />
        </SimpleGrid>
      </>
    );
  }

  const a = home.account;
  const place = [a.city, a.state].filter(Boolean).join(', ');
  return (
    <>
      <PageHeader
        title={a.name}
        lead={
          acting
            ? `The group’s home as its users see it${place ? ` · ${place}` : ''}.`
            : `Welcome back${firstName ? `, ${firstName}` : ''}.`
        }
      >
        <Text size="sm" c="gray.7">
          {[
            a.ein && `EIN ${a.ein}`,
            a.level && `Level: ${a.level}`,
            a.renewal_due_at && `Renewal due ${showDate(a.renewal_due_at)}`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </PageHeader>
      {!acting && <WorkspaceCard />}
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <StandingSection home={home} detailsTo={acting ? `/admin/accounts/show/${acting}` : '/account'} />
          <DeadlinesSection home={home} calendarTo="/account" isStaff={!!acting} />
        </SimpleGrid>
        <InvoicesSection home={home} withAccount={withAccount} />
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <ApplicationsSection home={home} />
          <UsersSection home={home} withAccount={withAccount} />
        </SimpleGrid>
        <DocumentsSection home={home} withAccount={withAccount} />
        {!acting && (
          <Text size="sm" c="gray.7">
            Your organization’s details, renewal and profile image are in{' '}
            <Anchor component={Link} to="/account" inherit>
              your account
            </Anchor>
            .{' '}
            <Anchor component={Link} to="/app/supervision" inherit>
              Yearly supervision report and Form 990-N
            </Anchor>
          </Text>
        )}
      </Stack>
    </>
  );
}
