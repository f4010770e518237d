import { Anchor, Badge, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { accountOverviewContracts } from '../../shared/contracts/account-overview.ts';
import { queryOf } from '../lib/queries.ts';

/** 'YYYY-MM-DD' shown as a calendar date, without a time zone shifting the day. */
function showCalendarDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d)).toLocaleDateString('en-US', {
    timeZone: 'UTC',
    weekday: 'short',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

function daysLeftText(days: number): { text: string; color: string } {
  if (days < 0) return { text: `${-days} day${days === -1 ? '' : 's'} overdue`, color: 'red' };
  if (days === 0) return { text: 'Due today', color: 'red' };
  return { text: `In ${days} day${days === 1 ? '' : 's'}`, color: days <= 7 ? 'red' : days <= 30 ? 'orange' : 'gray' };
}

/**
 * The organization's compliance calendar on /account (docs/requirements/product.md "Compliance calendar"): the next Form 990-series due date
 * from its fiscal year end and its renewal date, soonest first, with the days left ("Filed" once a
 * filing for that tax year is recorded), then the last recorded filings. Without a fiscal year end
 * on file it says where to add one.
 */
export function ComplianceCalendarCard({ accountId }: { accountId?: number }) {
  const q = useQuery({
    ...queryOf(accountOverviewContracts.calendar, { query: accountId ? { account_id: accountId } : {} }),
    retry: false,
  });
  if (!q.data) return null;
  const { deadlines, fiscal_year_end_month } = q.data;
  const filings = q.data.filings ?? [];
  return (
    <Card withBorder padding="xl" mt="lg" maw={720} component="section" aria-labelledby="compliance-calendar">
      <Title order={2} size="h3" id="compliance-calendar" mb="xs">
        Compliance calendar
      </Title>
      <Text size="sm" c="gray.7" mb="md">
        Missing three annual IRS filings in a row revokes tax exemption.{' '}
        <Anchor component={Link} to="/irs-form-990" inherit>
          About Form 990
        </Anchor>
      </Text>
      {deadlines.length === 0 && <Text>No deadlines yet.</Text>}
      <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {deadlines.map((d) => {
          const left = d.filed ? { text: 'Filed', color: 'green' } : daysLeftText(d.daysLeft);
          return (
            <Group component="li" key={`${d.kind}-${d.due}`} justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text fw={600}>{d.kind === 'renewal' ? 'GoodStanding renewal' : d.label}</Text>
                <Text size="sm" c="gray.7">
                  Due {showCalendarDate(d.due)}
                </Text>
              </div>
              <Badge color={left.color} variant="light" style={{ flexShrink: 0 }}>
                {left.text}
              </Badge>
            </Group>
          );
        })}
      </Stack>
      {filings.length > 0 && (
        <Text size="sm" mt="md" c="gray.7" data-testid="recorded-filings">
          {filings
            .slice(0, 3)
            .map((f) => `Filed for ${f.tax_year} on ${showCalendarDate(f.filed_on)} (Form ${f.form})`)
            .join(' · ')}
        </Text>
      )}
      {fiscal_year_end_month === null && (
        <Text size="sm" mt="md">
          Add your fiscal year end to your organization details to see your Form 990 due date.
        </Text>
      )}
    </Card>
  );
}
