import { Anchor, Box, Button, Card, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';

const TOOLS = [
  {
    title: 'Get tax exempt',
    text: 'Start-up, maintain and full-service levels with early-bird prices when you renew before your due date.',
    to: '/pricing',
    action: 'See levels and prices',
  },
  {
    title: 'Verify a 501(c)(3)',
    text: 'Look up a booster club or chapter listed under our IRS group exemption before you donate or partner.',
    to: '/verify-501c3',
    action: 'Verify a group’s status',
  },
  {
    title: 'Free compliance check',
    text: 'Missed a Form 990? Tell us your EIN and we review your revocation risk for free.',
    to: '/compliance-check',
    action: 'Request a free check',
  },
  {
    title: 'Multi-chapter organizations',
    text: 'National organizations keep every chapter and affiliate filed, registered and in good standing.',
    to: '/multi-chapter',
    action: 'See multi-chapter plans',
  },
];

const STEPS = [
  {
    title: 'Pick a level',
    text: (
      <>
        New groups start up with an EIN, bylaws and tax exemption; groups that already have their letter choose
        maintain.{' '}
        <Anchor inherit component={Link} to="/pricing">
          Compare the levels
        </Anchor>
        .
      </>
    ),
  },
  {
    title: 'Tell us about your group',
    text: 'Answer a short online application: officers, fiscal year and purpose. We prepare the paperwork and file it.',
  },
  {
    title: 'Stay in good standing',
    text: (
      <>
        Every year we file your{' '}
        <Anchor inherit component={Link} to="/irs-form-990">
          IRS Form 990
        </Anchor>
        , remind you of your{' '}
        <Anchor inherit component={Link} to="/state-registration">
          state registration
        </Anchor>{' '}
        and keep your status current.
      </>
    ),
  },
];

export default function HomePage() {
  const { company } = boot;
  return (
    <Stack gap={48}>
      <Box
        p={{ base: 'lg', sm: 40 }}
        bg="white"
        style={{ borderRadius: 'var(--mantine-radius-lg)', border: '1px solid var(--mantine-color-gray-3)' }}
      >
        <Text size="sm" fw={700} tt="uppercase" c="blue.8" mb="xs" style={{ letterSpacing: 0.5 }}>
          Booster clubs · Greek chapters · Affiliates
        </Text>
        <PageHeader
          title="Tax-exempt status for volunteer-run groups, kept in good standing every year"
          lead={`${company.name} gets booster clubs, fraternity and sorority chapters and affiliates tax exempt, then files the yearly IRS and state paperwork so a change of officers never costs you your exemption.`}
        >
          <Group mt="md" gap="sm">
            <Button component={Link} to="/pricing" size="md">
              See pricing
            </Button>
            <Button component={Link} to="/compliance-check" size="md" variant="default">
              Get a free compliance check
            </Button>
          </Group>
        </PageHeader>
      </Box>

      <Stack gap="md" component="section" aria-labelledby="home-tools">
        <Title order={2} id="home-tools">
          What we can do for your group
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="lg">
          {TOOLS.map((tool) => (
            <Card key={tool.to} withBorder padding="lg" style={{ display: 'flex', flexDirection: 'column' }}>
              <Title order={3} size="h4" mb="xs">
                {tool.title}
              </Title>
              <Text size="sm" c="gray.7" mb="md">
                {tool.text}
              </Text>
              <Button
                component={Link}
                to={tool.to}
                variant="light"
                mt="auto"
                fullWidth
                h="auto"
                py={8}
                styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 } }}
              >
                {tool.action}
              </Button>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>

      <Stack gap="md" component="section" aria-labelledby="home-how">
        <Title order={2} id="home-how">
          How it works
        </Title>
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
          {STEPS.map((step, i) => (
            <Group key={step.title} align="flex-start" wrap="nowrap" gap="md">
              <ThemeIcon size={40} radius="xl" variant="filled" aria-hidden>
                <Text fw={700} c="white">
                  {i + 1}
                </Text>
              </ThemeIcon>
              <div>
                <Title order={3} size="h4" mb={4}>
                  {step.title}
                </Title>
                <Text size="sm">{step.text}</Text>
              </div>
            </Group>
          ))}
        </SimpleGrid>
      </Stack>

      <Card withBorder padding="lg" component="section" aria-labelledby="home-help">
        <Title order={2} size="h3" id="home-help" mb="xs">
          Not sure where your group stands?
        </Title>
        <List spacing={4} size="sm" mb="md">
          <List.Item>
            Groups that miss their Form 990 three years in a row lose their exemption automatically.
          </List.Item>
          <List.Item>Many states also expect a yearly report or charitable registration.</List.Item>
          <List.Item>
            Planning to incorporate? Read about{' '}
            <Anchor inherit component={Link} to="/incorporation-and-ein">
              incorporation and getting an EIN
            </Anchor>
            .
          </List.Item>
        </List>
        <Group gap="sm">
          <Button component={Link} to="/contact">
            Talk to us
          </Button>
          {company.phone && (
            <Text size="sm">
              or call{' '}
              <Anchor inherit href={`tel:${company.phone.replace(/[^\d+]/g, '')}`}>
                {company.phone}
              </Anchor>
            </Text>
          )}
        </Group>
      </Card>
    </Stack>
  );
}
