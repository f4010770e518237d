import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';
import { Link } from 'react-router';
import { formatCurrency } from '../../shared/rules/formats.ts';
import { boot } from '../lib/boot.ts';
import { HttpFailure } from '../lib/http.ts';
import classes from './printable-document.module.css';

/** The shared classes of a printable document: `amount` right-aligns money in tabular figures. */
export const documentClasses = classes;

/** Query `retry` for a document: a 4xx (missing, not signed in, not allowed) is final; anything else is tried once more. */
export function retryUnlessClientError(count: number, error: unknown) {
  return !(error instanceof HttpFailure && error.status >= 400 && error.status < 500) && count < 1;
}

/** Sets the tab's title to `{title} | {company}` while `title` is known, and puts the old one back after. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (!title) return;
    const before = document.title;
    document.title = `${title} | ${boot.company.name}`;
    return () => {
      document.title = before;
    };
  }, [title]);
}

/**
 * Why a document could not be shown: 401 asks to sign in (and comes back here after), 404 says the
 * `noun` is not found (unknown or another account's: the server does not say which) and links to
 * `listHref`, anything else is "Something went wrong".
 */
export function DocumentFailure({
  error,
  noun,
  missingText,
  listHref,
  listLabel,
}: {
  error: unknown;
  /** Lower case, as in "Sign in to see this invoice." */
  noun: string;
  /** The paragraph under "{Noun} not found". */
  missingText: string;
  listHref: string;
  /** The button's label, e.g. "Go to payments". */
  listLabel: string;
}) {
  const status = error instanceof HttpFailure ? error.status : 0;
  if (status === 401) {
    const next = encodeURIComponent(window.location.pathname);
    return (
      <Stack align="flex-start" py="xl">
        <Title order={1}>Please sign in</Title>
        <Text>Sign in to see this {noun}.</Text>
        <Button component={Link} to={`/login?next=${next}`}>
          Sign in
        </Button>
      </Stack>
    );
  }
  const missing = status === 404;
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <Stack align="flex-start" py="xl">
      <Title order={1}>{missing ? `${Noun} not found` : 'Something went wrong'}</Title>
      <Text>{missing ? missingText : `The ${noun} could not be loaded. Please reload the page.`}</Text>
      <Button component={Link} to={listHref} variant={missing ? 'filled' : 'default'}>
        {listLabel}
      </Button>
    </Stack>
  );
}

/** A loaded document page: a screen-only bar with the `back` link and a Print button, then the sheet. */
export function PrintableDocument({ back, children }: { back: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md">
      <Group justify="space-between" className={classes.noPrint} maw="52rem">
        {back}
        <Button variant="light" onClick={() => window.print()}>
          Print
        </Button>
      </Group>
      {children}
    </Stack>
  );
}

/**
 * The printed sheet: an article named by its h1 `title`, headed by the company's letterhead on the
 * left and the title, `date` and status `badge` on the right; `children` follow. Printing the page
 * prints this alone.
 */
export function PrintableSheet({
  titleId,
  title,
  date,
  badge,
  company,
  children,
}: {
  titleId: string;
  title: string;
  date: string;
  /** The status under the date, e.g. "Paid" in green. */
  badge: { label: string; color: string };
  company: { name: string; phone?: string; email?: string };
  children: ReactNode;
}) {
  return (
    <Paper
      withBorder
      shadow="xs"
      p={{ base: 'md', sm: 40 }}
      component="article"
      aria-labelledby={titleId}
      className={classes.sheet}
    >
      <Stack gap="xl">
        <Group justify="space-between" align="flex-start">
          <div>
            <Text fw={800} fz="xl">
              {company.name}
            </Text>
            {company.phone && (
              <Text size="sm" c="gray.7">
                {company.phone}
              </Text>
            )}
            {company.email && (
              <Text size="sm" c="gray.7">
                {company.email}
              </Text>
            )}
          </div>
          <div style={{ textAlign: 'right' }}>
            <Title order={1} size="h2" id={titleId}>
              {title}
            </Title>
            <Text size="sm" c="gray.7">
              Date: {date}
            </Text>
            <Badge mt={6} color={badge.color} variant="light">
              {badge.label}
            </Badge>
          </div>
        </Group>
        {children}
      </Stack>
    </Paper>
  );
}

/** One line of a document's totals: the label left, the amount right; `strong` for the final total. */
export function SummaryRow({ label, cents, strong }: { label: string; cents: number; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="xl" wrap="nowrap">
      <Text fw={strong ? 800 : 500}>{label}</Text>
      <Text fw={strong ? 800 : 500} fz={strong ? 'lg' : undefined} className={classes.amount}>
        {formatCurrency(cents)}
      </Text>
    </Group>
  );
}
