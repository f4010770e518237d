import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { HttpFailure } from '../../lib/http.ts';
import { queryOf } from '../../lib/queries.ts';
import { answersToValues, BylawsForm } from './bylaws-form.tsx';
import type { bylawContracts } from '../../../shared/contracts/bylaws.ts';
import type { BylawVariant } from '../../../shared/schemas/bylaws.ts';

const HEADERS: Record<BylawVariant, { title: string; lead: string }> = {
  standard: {
    title: 'Bylaws generator',
    lead: 'Answer the questions below and we will write a complete set of bylaws for your booster club or parent group, as a Word document you can edit.',
  },
  school: {
    title: 'School booster bylaws generator',
    lead: 'Bylaws for a booster club that works with a school, including the clauses many schools and districts require of their booster organizations.',
  },
  short: {
    title: 'Short bylaws generator',
    lead: 'A shorter set of bylaws from four answers, for small groups that want to get started quickly.',
  },
};

function VariantPage({ variant }: { variant: BylawVariant }) {
  return (
    <>
      <PageHeader title={HEADERS[variant].title} lead={HEADERS[variant].lead} />
      <BylawsForm variant={variant} />
    </>
  );
}

/** /bylaws-generator (docs/requirements/product.md tool 3, standard variant). */
export function StandardBylawsPage() {
  return <VariantPage variant="standard" />;
}

/** /bylaws-generator/school: is_school always 1, the school official and ten clauses. */
export function SchoolBylawsPage() {
  return <VariantPage variant="school" />;
}

/** /bylaws-generator/short: version, name, purpose, fiscal year end and highlight. */
export function ShortBylawsPage() {
  return <VariantPage variant="short" />;
}

/** /bylaws-generator/edit/:hash — the address a save gives: reopens the saved answers in update mode. */
export function EditBylawsPage() {
  const { hash = '' } = useParams();
  const query = useQuery({
    ...queryOf(routeAt<typeof bylawContracts.forEditing>('GET', '/api/bylaws/:hash'), { params: { hash } }),
    retry: false,
  });
  if (query.isPending)
    return (
      <Stack align="center" py="xl">
        <Loader role="status" aria-label="Loading" />
      </Stack>
    );
  if (query.isError) {
    const missing = query.error instanceof HttpFailure && query.error.status === 404;
    return (
      <>
        <PageHeader title="Your bylaws" />
        <Alert
          color={missing ? 'yellow' : 'red'}
          title={missing ? 'We could not find these bylaws' : "That didn't work."}
        >
          <Text>
            {missing
              ? 'Saved bylaws can be edited only from the browser they were created in. You can '
              : 'Please reload the page, or '}
            <Anchor component={Link} to="/bylaws-generator">
              start over
            </Anchor>
            .
          </Text>
        </Alert>
      </>
    );
  }
  const { bylaw, answers } = query.data;
  return (
    <>
      <PageHeader
        title={HEADERS[bylaw.variant].title}
        lead="Change your answers and press Generate to update your bylaws."
      />
      <BylawsForm variant={bylaw.variant} initial={answersToValues(bylaw.variant, answers)} saved={query.data} />
    </>
  );
}
