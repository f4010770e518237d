import { Alert, Anchor, Button, Card, Center, List, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { PAGE_QUERY } from '../../../shared/page-queries.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { firstYearCents } from '../../../shared/rules/renewal.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { deferredComponent } from '../../lib/deferred-component.tsx';
import { queryOf } from '../../lib/queries.ts';
import type { PublicLevel } from '../../../shared/schemas/content.ts';

type Level = PublicLevel;

// The form shows once a level is chosen: its code (form kit, React Hook Form, zod, the table of
// the first invoice) is a chunk of its own, not part of the page's first screen (docs/ARCHITECTURE.md
// "Initial JavaScript"). The server's render loads it first (src/web/entry-server.tsx).
const ApplicationStartForm = deferredComponent(
  () => import('./application-start-form.tsx'),
  (m) => m.ApplicationStartForm,
);

function LevelCard({ level, chosen }: { level: Level; chosen: boolean }) {
  return (
    <Card
      withBorder
      padding="lg"
      component="article"
      aria-labelledby={`level-${level.id}`}
      style={{
        display: 'flex',
        flexDirection: 'column',
        borderColor: chosen ? 'var(--mantine-color-blue-8)' : undefined,
        borderWidth: chosen ? 2 : undefined,
      }}
    >
      <Title order={2} size="h4" id={`level-${level.id}`}>
        {level.name}
      </Title>
      <Text size="sm" c="gray.7" mt="xs">
        {level.description}
      </Text>
      <Text fz={32} fw={800} mt="md" lh={1.1}>
        {formatCurrency(level.priceCents)}
        <Text span size="sm" fw={400} c="gray.7">
          {' '}
          a year
        </Text>
      </Text>
      {firstYearCents(level) < level.priceCents && (
        <Text size="sm" mt={4}>
          Early-bird price: <strong>{formatCurrency(firstYearCents(level))}</strong> (
          {formatCurrency(level.priceCents - firstYearCents(level))} off) for your first year, and each year you renew
          before your due date.
        </Text>
      )}
      <Text size="sm" fw={600} mt="md" mb={4}>
        Each renewal includes:
      </Text>
      <List size="sm" spacing={4} mb="lg">
        {level.renewalFeatures.map((f) => (
          <List.Item key={f}>{f}</List.Item>
        ))}
      </List>
      <Button
        component={Link}
        to={`/pricing?level=${level.id}#start`}
        mt="auto"
        fullWidth
        variant={chosen ? 'filled' : 'light'}
        h="auto"
        py={8}
        styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } }}
      >
        Choose {level.name}
      </Button>
    </Card>
  );
}

export default function PricingPage() {
  const { data, isPending, isError } = useQuery({
    // Typed by the contract but fetched by its address: the contract's zod schemas stay out of this
    // page's first screen (docs/ARCHITECTURE.md "Initial JavaScript").
    ...queryOf(PAGE_QUERY.pricing.route, {}),
  });
  const [params] = useSearchParams();
  const { hash } = useLocation();
  const levels = data?.levels ?? [];
  const chosen = levels.find((l) => String(l.id) === params.get('level'));
  const { phone } = boot.company;

  // The router does not scroll to a #hash itself; do it once the section is on the page.
  useEffect(() => {
    if (hash === '#start' && data)
      document.getElementById('start')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [hash, data, chosen?.id]);

  return (
    <>
      <PageHeader
        title="Pricing"
        lead="One yearly price covers getting your group tax exempt, or keeping the exemption you have. Your first year, and each renewal made before its due date, costs the early-bird price."
      />
      {isPending && (
        <Center py="xl">
          <Loader role="status" aria-label="Loading" />
        </Center>
      )}
      {isError && (
        <Alert color="red" title="Something went wrong">
          We could not load the prices. Please reload the page.
        </Alert>
      )}
      {data && (
        <Stack gap="xl">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(4, Math.max(1, levels.length)) }} spacing="lg">
            {levels.map((level) => (
              <LevelCard key={level.id} level={level} chosen={level.id === chosen?.id} />
            ))}
          </SimpleGrid>
          <Card
            id="start"
            withBorder
            padding="lg"
            bg={chosen ? 'blue.0' : undefined}
            aria-labelledby={chosen ? 'start-title' : undefined}
          >
            {chosen ? (
              <Stack gap="md" maw={520}>
                <div>
                  <Title order={2} size="h3" id="start-title">
                    Start your application
                  </Title>
                  <Text size="sm" c="gray.7" mt={4}>
                    Create your sign-in and we will take you to the questions. Your answers are saved as you go.
                    {phone && (
                      <>
                        {' '}
                        Questions? Call us at{' '}
                        <Anchor inherit href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
                          {phone}
                        </Anchor>
                        .
                      </>
                    )}
                  </Text>
                </div>
                {boot.user && (
                  <Alert color="blue" variant="light">
                    You are signed in as {boot.user.email}. Applications you started are listed in{' '}
                    <Anchor component={Link} to="/account" inherit>
                      your account
                    </Anchor>
                    .
                  </Alert>
                )}
                <Suspense
                  fallback={
                    <Center py="xl">
                      <Loader role="status" aria-label="Loading the form" />
                    </Center>
                  }
                >
                  <ApplicationStartForm key={chosen.id} level={chosen} />
                </Suspense>
              </Stack>
            ) : (
              <Text aria-live="polite">Pick a level above to start your application.</Text>
            )}
          </Card>
        </Stack>
      )}
    </>
  );
}
