import { Alert, Anchor, Button, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';

const STEPS = [
  {
    title: 'Articles of incorporation',
    text: 'The document you file with your state, usually the Secretary of State, to create the nonprofit corporation. It gives the name, purpose, registered agent and incorporators. For 501(c)(3) status the IRS also expects a purpose clause limiting the group to charitable or educational purposes, and a dissolution clause sending any remaining assets to another 501(c)(3) or a government body.',
  },
  {
    title: 'Registered agent',
    text: 'A person or company with a street address in the state (not a P.O. box) who is available during business hours to receive legal papers and state notices for the corporation. A volunteer officer can serve, but the address has to be kept current when officers change.',
  },
  {
    title: 'Bylaws',
    text: 'Your group’s own rules: purpose, members, how officers and directors are elected, meetings and quorum, the fiscal year, and how money is handled. Bylaws are usually not filed with the state, but the IRS asks for them with an exemption application.',
  },
  {
    title: 'Board of directors',
    text: 'The people legally responsible for the corporation. Many states require at least three directors. A board of unrelated people who meet, keep minutes and review the finances protects both the group and its volunteers.',
  },
];

export default function IncorporationPage() {
  return (
    <Stack gap="xl">
      <PageHeader
        title="Incorporation and EIN"
        lead="Incorporating turns a volunteer group into a legal entity that can open accounts, sign contracts and shield its volunteers from personal liability. The EIN is the group’s federal ID number. Here is how both work."
      />

      <Stack gap="sm" component="section" aria-labelledby="why-incorporate">
        <Title order={2} id="why-incorporate">
          Should your group incorporate?
        </Title>
        <Text>
          A group does not have to be a corporation to be tax exempt: an unincorporated association with written
          articles and bylaws can qualify too. But incorporating gives officers and volunteers protection from the
          group’s debts and lawsuits, makes banking and insurance easier, and is required by some schools, districts and
          national organizations. Incorporating is a state matter; tax exemption is a separate IRS matter.
        </Text>
        <Text>
          Filing fees differ by state.{' '}
          <Anchor inherit component={Link} to="/state-registration#us_map">
            See the incorporation fee estimate for your state
          </Anchor>
          .
        </Text>
      </Stack>

      <Stack gap="md" component="section" aria-labelledby="what-you-need">
        <Title order={2} id="what-you-need">
          What incorporating involves
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {STEPS.map((step) => (
            <Card key={step.title} withBorder padding="lg">
              <Title order={3} size="h4" mb="xs">
                {step.title}
              </Title>
              <Text size="sm">{step.text}</Text>
            </Card>
          ))}
        </SimpleGrid>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="ein">
        <Title order={2} id="ein">
          Getting an EIN
        </Title>
        <Text>
          An Employer Identification Number is the nine-digit number the IRS uses to identify your group. You need one
          to open a bank account, apply for tax exemption and file your yearly Form 990, even if the group has no
          employees.
        </Text>
        <List spacing="xs">
          <List.Item>
            <strong>It is free.</strong> Apply directly with the IRS, online at IRS.gov (the number is issued at the end
            of the session) or by fax or mail with Form&nbsp;SS&#8209;4. Websites that charge for an EIN are not the
            IRS.
          </List.Item>
          <List.Item>
            <strong>Name a responsible party.</strong> This is the individual who controls the group’s money and
            property, usually the president or treasurer. The online application needs that person’s Social Security
            number or ITIN.
          </List.Item>
          <List.Item>
            <strong>Incorporate first.</strong> If you plan to incorporate, apply for the EIN in the corporation’s exact
            legal name after the state approves the articles. A group that later incorporates generally needs a new EIN.
          </List.Item>
          <List.Item>
            <strong>Keep it current.</strong> When the responsible party changes, tell the IRS with Form 8822-B within
            60 days, so notices reach someone who is still involved.
          </List.Item>
        </List>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="school-ein">
        <Title order={2} id="school-ein">
          Why a booster club should not use the school’s EIN
        </Title>
        <Text>
          A booster club is a separate organization from the school or district it supports. Using the school’s EIN
          causes real problems:
        </Text>
        <List spacing="xs">
          <List.Item>
            Money in an account under the school’s EIN legally belongs to the school and falls under district rules and
            audits.
          </List.Item>
          <List.Item>
            The club’s income shows up under the school’s number, which confuses reporting for both, and many districts
            forbid it.
          </List.Item>
          <List.Item>
            The school’s status does not make the club tax exempt, so the club itself is not in good standing with the
            IRS.
          </List.Item>
          <List.Item>Volunteers handling the money may be personally exposed if something goes wrong.</List.Item>
        </List>
        <Alert color="blue" title="The fix is straightforward">
          Get the club its own EIN, adopt bylaws, apply for its own exemption (or join a group exemption) and open a
          bank account in the club’s name.
        </Alert>
      </Stack>

      <Card withBorder padding="lg" component="section" aria-labelledby="inc-help">
        <Title order={2} size="h3" id="inc-help" mb="xs">
          Let us handle the paperwork
        </Title>
        <Text mb="md">
          Our full-service level includes state incorporation with registered agent guidance, alongside your EIN, bylaws
          and tax exemption.
        </Text>
        <Group gap="sm">
          <Button component={Link} to="/pricing">
            Compare levels and prices
          </Button>
          <Button component={Link} to="/contact" variant="default">
            Ask us about incorporating
          </Button>
        </Group>
      </Card>
    </Stack>
  );
}
