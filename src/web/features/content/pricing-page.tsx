import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Card, Center, Group, List, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { firstYearCents } from '../../../shared/rules/renewal.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { http, setCsrfToken } from '../../lib/http.ts';
import { pushEventThen } from '../../lib/analytics.ts';
import { toastFailure } from '../../lib/feedback.tsx';
import { applicationStartSchema } from '../../../shared/schemas/application.ts';
import { KitForm, PasswordField, TextField } from '../../components/form-kit/kit.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import type { PublicLevel } from '../../../shared/schemas/content.ts';
import { PAGE_QUERY } from '../../../shared/page-queries.ts';

type Level = PublicLevel;

function LevelCard({ level, chosen }: { level: Level; chosen: boolean }) {
  return (
    <Card
      withBorder
      padding="lg"
      component="article"
      aria-labelledby={`level-${level.id}`}
      style={{ display: 'flex', flexDirection: 'column', borderColor: chosen ? 'var(--mantine-color-blue-8)' : undefined, borderWidth: chosen ? 2 : undefined }}
    >
      <Title order={2} size="h4" id={`level-${level.id}`}>{level.name}</Title>
      <Text size="sm" c="gray.7" mt="xs">{level.description}</Text>
      <Text fz={32} fw={800} mt="md" lh={1.1}>
        {formatCurrency(level.priceCents)}<Text span size="sm" fw={400} c="gray.7"> a year</Text>
      </Text>
      {firstYearCents(level) < level.priceCents && (
        <Text size="sm" mt={4}>
          Early-bird price: <strong>{formatCurrency(firstYearCents(level))}</strong> ({formatCurrency(level.priceCents - firstYearCents(level))} off)
          for your first year, and each year you renew before your due date.
        </Text>
      )}
      <Text size="sm" fw={600} mt="md" mb={4}>Each renewal includes:</Text>
      <List size="sm" spacing={4} mb="lg">
        {level.renewalFeatures.map((f) => <List.Item key={f}>{f}</List.Item>)}
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

/** How long to wait for the tag manager to call back before leaving anyway (docs/requirements/behaviour.md "Application start"). */

const clientSchema = applicationStartSchema.pick({ email: true, password: true });

/**
 * docs/requirements/product.md tool 1, docs/requirements/screens.md "Application start form": e-mail, password with the five-bar strength meter, the
 * chosen level (sent as `level_id`), privacy link and "Let's go!". On success an
 * 'application_started' event is pushed to the tag manager; its callback (or at once without a tag
 * manager, or after a timeout) loads /application/create/{token} once (pushEventThen).
 * A 422 shows the errors under the fields; any other failure toasts "That didn't work." (docs/requirements/errors.md).
 */
/**
 * What the first invoice will say (docs/renewals.md "Prices that agree"): the level's price as
 * /pricing shows it, the early-bird discount as its own line, and the total, from the same rule
 * the server bills with (firstYearCents).
 */
function FirstInvoice({ level }: { level: Level }) {
  const total = firstYearCents(level);
  const off = level.priceCents - total;
  return (
    <Table aria-label="Your first invoice" withRowBorders={false} verticalSpacing={2} horizontalSpacing={0} maw={360}>
      <Table.Caption ta="left" style={{ captionSide: 'top' }}><Text size="sm" fw={500} span>Your first invoice</Text></Table.Caption>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th scope="row" fw={400}>{level.name}, first year</Table.Th>
          <Table.Td ta="right">{formatCurrency(level.priceCents)}</Table.Td>
        </Table.Tr>
        {off > 0 && (
          <Table.Tr>
            <Table.Th scope="row" fw={400}>Early-bird discount</Table.Th>
            <Table.Td ta="right">{formatCurrency(-off)}</Table.Td>
          </Table.Tr>
        )}
        <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-4)' }}>
          <Table.Th scope="row">Total</Table.Th>
          <Table.Td ta="right" fw={700} data-testid="first-invoice-total">{formatCurrency(total)}</Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

function ApplicationStartForm({ level }: { level: Level }) {
  const [leaving, setLeaving] = useState(false);

  const kit = useServerForm<{ email: string; password: string }, { token: string; csrfToken?: string }>({
    action: '/application/start',
    defaultValues: { email: '', password: '' },
    schema: clientSchema,
    captchaAction: 'application_start',
    isClearing: false,
    toPayload: (v) => ({ ...v, level_id: level.id }),
    onSuccess: (res) => {
      if (res.csrfToken) setCsrfToken(res.csrfToken);
      setLeaving(true);
      // A full load, so the page carries the new session's CSRF token and user.
      pushEventThen('application_started', { level_id: level.id }, () =>
        window.location.assign(`/application/create/${encodeURIComponent(res.token)}`));
    },
    onFailure: (failure) => {
      if (failure.status !== 422) toastFailure();
    },
  });

  const busy = kit.submitting || leaving;
  return (
    <KitForm kit={kit} label="Start your application">
      <div>
        <Text size="sm" fw={500}>Level</Text>
        <Text fw={700} data-testid="chosen-level">{level.name}</Text>
        <input type="hidden" name="level_id" value={level.id} />
      </div>
      <FirstInvoice level={level} />
      <TextField name="email" label="E-mail" type="email" required autoComplete="email" />
      <PasswordField name="password" label="Password" required withMeter />
      <Text size="sm" c="gray.7">
        We use your e-mail to sign you in and to send your application link. See our{' '}
        <Anchor component={Link} to="/privacy" inherit>privacy policy</Anchor>.
      </Text>
      <Group>
        <Button type="submit" loading={busy} disabled={kit.hasErrors || busy}>Let's go!</Button>
      </Group>
    </KitForm>
  );
}

export default function PricingPage() {
  const { data, isPending, isError } = useQuery({
    queryKey: PAGE_QUERY.pricing.queryKey,
    queryFn: () => http.get<{ levels: Level[] }>(PAGE_QUERY.pricing.url),
  });
  const [params] = useSearchParams();
  const { hash } = useLocation();
  const levels = data?.levels ?? [];
  const chosen = levels.find((l) => String(l.id) === params.get('level'));
  const { phone } = boot.company;

  // The router does not scroll to a #hash itself; do it once the section is on the page.
  useEffect(() => {
    if (hash === '#start' && data) document.getElementById('start')?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [hash, data, chosen?.id]);

  return (
    <>
      <PageHeader
        title="Pricing"
        lead="One yearly price covers getting your group tax exempt, or keeping the exemption you have. Your first year, and each renewal made before its due date, costs the early-bird price."
      />
      {isPending && <Center py="xl"><Loader role="status" aria-label="Loading" /></Center>}
      {isError && <Alert color="red" title="Something went wrong">We could not load the prices. Please reload the page.</Alert>}
      {data && (
        <Stack gap="xl">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(4, Math.max(1, levels.length)) }} spacing="lg">
            {levels.map((level) => <LevelCard key={level.id} level={level} chosen={level.id === chosen?.id} />)}
          </SimpleGrid>
          <Card id="start" withBorder padding="lg" bg={chosen ? 'blue.0' : undefined} aria-labelledby={chosen ? 'start-title' : undefined}>
            {chosen ? (
              <Stack gap="md" maw={520}>
                <div>
                  <Title order={2} size="h3" id="start-title">Start your application</Title>
                  <Text size="sm" c="gray.7" mt={4}>
                    Create your sign-in and we will take you to the questions. Your answers are saved as you go.
                    {phone && <> Questions? Call us at <Anchor inherit href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</Anchor>.</>}
                  </Text>
                </div>
                {boot.user && (
                  <Alert color="blue" variant="light">
                    You are signed in as {boot.user.email}. Applications you started are listed in{' '}
                    <Anchor component={Link} to="/account" inherit>your account</Anchor>.
                  </Alert>
                )}
                <ApplicationStartForm key={chosen.id} level={chosen} />
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
