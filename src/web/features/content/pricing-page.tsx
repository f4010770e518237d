import { useEffect } from 'react';
import { Alert, Anchor, Button, Card, Center, List, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearchParams } from 'react-router';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import { http } from '../../lib/http.ts';
import type { PublicLevel } from '../../../shared/schemas/content.ts';

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
      <Text fz={32} fw={800} mt="md" lh={1.1}>{formatCurrency(level.priceCents)}</Text>
      {level.priceDiscountCents < level.priceCents && (
        <Text size="sm" mt={4}>
          Early-bird price: <strong>{formatCurrency(level.priceDiscountCents)}</strong> when you renew before your due date
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

export default function PricingPage() {
  const { data, isPending, isError } = useQuery({
    queryKey: ['pricing'],
    queryFn: () => http.get<{ levels: Level[] }>('/api/pricing'),
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
        lead="One price covers getting your group tax exempt, or keeping the exemption you have. Renew before your due date and pay the early-bird price."
      />
      {isPending && <Center py="xl"><Loader aria-label="Loading" /></Center>}
      {isError && <Alert color="red" title="Something went wrong">We could not load the prices. Please reload the page.</Alert>}
      {data && (
        <Stack gap="xl">
          <SimpleGrid cols={{ base: 1, sm: 2, lg: Math.min(4, Math.max(1, levels.length)) }} spacing="lg">
            {levels.map((level) => <LevelCard key={level.id} level={level} chosen={level.id === chosen?.id} />)}
          </SimpleGrid>
          <Card id="start" withBorder padding="lg" bg={chosen ? 'blue.0' : undefined} aria-live="polite">
            {chosen ? (
              <Text>
                You chose <strong>{chosen.name}</strong>. Online applications open soon;{' '}
                {phone && <>call us at <Anchor inherit href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</Anchor> or </>}
                use the <Anchor inherit component={Link} to="/contact">contact form</Anchor>.
              </Text>
            ) : (
              <Text>Pick a level above to start your application.</Text>
            )}
          </Card>
        </Stack>
      )}
    </>
  );
}
