import { Alert, Anchor, Button, Card, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';

/** The IRS's own pages and the law behind this page's rules (docs/irs-standing.md "Rules"). */
const SOURCES = [
  {
    href: 'https://www.irs.gov/charities-non-profits/annual-electronic-filing-requirement-for-small-exempt-organizations-form-990-n-e-postcard',
    text: 'IRS: Form 990-N (e-Postcard) filing requirement',
  },
  {
    href: 'https://www.irs.gov/charities-non-profits/gross-receipts-normally-50000-or-less',
    text: 'IRS: Gross receipts normally $50,000 or less',
  },
  {
    href: 'https://www.irs.gov/charities-non-profits/return-due-dates-for-exempt-organizations-annual-return',
    text: 'IRS: Return due dates for exempt organizations',
  },
  {
    href: 'https://www.irs.gov/charities-non-profits/automatic-revocation-of-exemption',
    text: 'IRS: Automatic revocation of exemption',
  },
  {
    href: 'https://www.law.cornell.edu/uscode/text/26/6033',
    text: 'Internal Revenue Code §6033 (section (j): revocation for failure to file)',
  },
  { href: 'https://www.irs.gov/irb/2014-03_IRB', text: 'Rev. Proc. 2014-11: reinstatement after automatic revocation' },
];

const FORMS = [
  {
    form: 'Form 990-N (e-Postcard)',
    who: 'Gross receipts normally $50,000 or less',
    how: 'A short online notice on IRS.gov: your EIN, name, address, principal officer, website and a confirmation that receipts are under the limit. No fee.',
  },
  {
    form: 'Form 990-EZ',
    who: 'Gross receipts under $200,000 and total assets under $500,000 at the end of the year',
    how: 'A four-page return with income, expenses, balance sheet, program accomplishments and officers. Filed electronically.',
  },
  {
    form: 'Form 990',
    who: 'Gross receipts of $200,000 or more, or total assets of $500,000 or more',
    how: 'The full return with schedules for governance, compensation, fundraising events and more. Filed electronically.',
  },
];

export default function Form990Page() {
  return (
    <Stack gap="xl" maw={960}>
      <PageHeader
        title="IRS Form 990 filing"
        lead="Almost every tax-exempt group has to file a Form 990-series return with the IRS every year, even a small booster club that raised only a few thousand dollars. Here is which one you file, when it is due, and what happens if you miss it."
      />

      <Stack gap="sm" component="section" aria-labelledby="which-form">
        <Title order={2} id="which-form">
          Which form does your group file?
        </Title>
        <Text>
          The form depends on your group’s <strong>gross receipts</strong>: everything it took in during the year from
          all sources (dues, donations, ticket and concession sales, fundraiser proceeds) <em>before</em> subtracting
          any costs. A car wash that brought in $3,000 and cost $400 in supplies counts as $3,000.
        </Text>
        <Table.ScrollContainer minWidth={640}>
          <Table withTableBorder withColumnBorders verticalSpacing="sm" bg="white">
            <Table.Caption c="gray.7">Form 990-series returns for small exempt organizations</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Form</Table.Th>
                <Table.Th scope="col">Who files it</Table.Th>
                <Table.Th scope="col">What it involves</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {FORMS.map((f) => (
                <Table.Tr key={f.form}>
                  <Table.Th scope="row" fw={600} style={{ whiteSpace: 'nowrap' }}>
                    {f.form}
                  </Table.Th>
                  <Table.Td>{f.who}</Table.Td>
                  <Table.Td>{f.how}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="sm" c="gray.7">
          Any group may file a longer form than it needs to. Private foundations file Form 990-PF whatever their size,
          and churches are not required to file.
        </Text>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="normally">
        <Title order={2} id="normally">
          What “normally $50,000 or less” means
        </Title>
        <Text>
          The IRS looks at an average rather than one year, so a single big fundraiser does not always push you off the
          e-Postcard:
        </Text>
        <List spacing="xs">
          <List.Item>In its first year, a group qualifies if it received (or was pledged) $75,000 or less.</List.Item>
          <List.Item>
            Between one and three years old, it qualifies if it averaged $60,000 or less in its first two years.
          </List.Item>
          <List.Item>
            At three years or older, it qualifies if it averaged $50,000 or less over the last three years, counting the
            year being reported.
          </List.Item>
        </List>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="due-date">
        <Title order={2} id="due-date">
          When it is due
        </Title>
        <Text>
          Every 990-series return is due on the <strong>15th day of the 5th month after your fiscal year ends</strong>.
          For a group whose year ends December 31, that is May 15; for a school-year group ending June 30, it is
          November 15. When the day falls on a weekend or federal holiday, the next business day counts.
        </Text>
        <Text>
          Form 8868 gives an automatic six-month extension for Form 990 and Form 990-EZ. The 990-N cannot be extended,
          but it only takes a few minutes once you have the information ready. There is no penalty for a late 990-N, and
          a late e-Postcard still counts: if you missed the date, file now. Late 990-EZ and 990 returns can draw daily
          penalties.
        </Text>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="revocation">
        <Title order={2} id="revocation">
          Missing three years means automatic revocation
        </Title>
        <Text>
          A group that does not file a required return or e-Postcard for <strong>three consecutive years</strong> loses
          its tax exemption automatically, on the due date of the third return. Since the Taxpayer First Act of 2019 the
          IRS must first send a notice to a group that has missed two years in a row, saying what happens if it misses
          the next deadline. Once the third due date passes the revocation happens by law and the IRS cannot reverse it:
          getting the exemption back takes a new application. The IRS publishes the group on its Automatic Revocation
          List, donations made after that date are no longer tax deductible, and the group may owe income tax. This
          happens most often when officers change and nobody knows the return exists.
        </Text>
        <Alert color="blue" title="Tip for volunteer groups">
          Keep your EIN, fiscal year end and return due date in your officer handbook, and go over them with each new
          treasurer.
        </Alert>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="reinstatement">
        <Title order={2} id="reinstatement">
          Getting reinstated
        </Title>
        <Text>
          To get the exemption back, the group has to apply again (Form 1023, Form 1023-EZ or Form 1024, with the IRS
          user fee), even if it never had to apply the first time. Small groups that were eligible to file the 990-N or
          990-EZ and apply within 15 months of the revocation notice can usually have the exemption restored
          retroactively to the revocation date. After that window, a retroactive reinstatement needs a statement showing
          reasonable cause for not filing, and usually the missing returns.
        </Text>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="sources-990">
        <Title order={2} size="h3" id="sources-990">
          Sources
        </Title>
        <List spacing={4}>
          {SOURCES.map((source) => (
            <List.Item key={source.href}>
              <Anchor href={source.href} target="_blank" rel="noopener noreferrer">
                {source.text}
              </Anchor>
            </List.Item>
          ))}
        </List>
      </Stack>

      <Card withBorder padding="lg" component="section" aria-labelledby="help-990">
        <Title order={2} size="h3" id="help-990" mb="xs">
          Not sure whether your group is current?
        </Title>
        <Text mb="md">
          We check your filing history and revocation risk for free, and every level we offer includes filing your
          yearly return.
        </Text>
        <Group gap="sm">
          <Button component={Link} to="/compliance-check">
            Get a free compliance check
          </Button>
          <Button component={Link} to="/contact" variant="default">
            Ask us about your 990
          </Button>
        </Group>
        <Text size="sm" c="gray.7" mt="md">
          Want us to file it every year?{' '}
          <Anchor inherit component={Link} to="/pricing">
            See our levels and prices
          </Anchor>
          .
        </Text>
      </Card>
    </Stack>
  );
}
