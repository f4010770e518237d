import { Anchor, List, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { boot } from '../../lib/boot.ts';
import type { ReactNode } from 'react';

const COOKIES = [
  {
    name: 'Session',
    purpose: 'Keeps you signed in and connects your visits while you fill in a form.',
    lasts: 'Until you sign out or the session expires',
  },
  {
    name: 'Security (CSRF)',
    purpose: 'Proves that a form was sent from our own pages, protecting you from forged requests.',
    lasts: 'Until the session ends',
  },
  {
    name: 'Banner dismissal',
    purpose: 'Remembers that you closed a notice at the top of the page so it stays closed.',
    lasts: '1 day',
  },
  {
    name: 'Page rating',
    purpose: 'Remembers that you already rated a page so we show you the thank-you message.',
    lasts: '7 days',
  },
];

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export default function PrivacyPage() {
  const { name, phone, email } = boot.company;
  return (
    <Stack gap="xl" maw={860}>
      <PageHeader
        title="Privacy policy"
        lead={`This page explains, in plain language, what ${name} collects when you use our website, why, who we share it with, and the choices you have.`}
      />

      <Section id="collect" title="What we collect">
        <Text>We collect only what we need to answer you and to keep your group tax exempt:</Text>
        <List spacing="xs">
          <List.Item>
            <strong>What you type into our forms.</strong> The contact, compliance check, multi-chapter and campus
            report forms ask for things like your name, e-mail address, phone number, organization, EIN and your
            message.
          </List.Item>
          <List.Item>
            <strong>Your account.</strong> Your name, e-mail address and password. We store the password only as a
            one-way hash, so nobody at {name} can read it.
          </List.Item>
          <List.Item>
            <strong>Your organization’s information.</strong> Its name and address, EIN, officers and their contact
            details, fiscal year, bylaws answers, documents you upload and its filing history, which we need to prepare
            and file paperwork for it.
          </List.Item>
          <List.Item>
            <strong>Page ratings.</strong> The rating and any comment you leave when you tell us whether a page helped.
          </List.Item>
          <List.Item>
            <strong>Technical details.</strong> Your IP address and browser type when you sign in, send a form or rate a
            page. We use them to keep accounts secure and to stop spam and abuse.
          </List.Item>
        </List>
      </Section>

      <Section id="payments" title="Payments">
        <Text>
          Card and bank details are entered into a form provided by our payment processor, which turns them into a
          token. Your card number never reaches our servers and we never store it. We keep a record of what was paid,
          when and for which invoice.
        </Text>
      </Section>

      <Section id="use" title="How we use it">
        <List spacing="xs">
          <List.Item>To answer your questions and requests.</List.Item>
          <List.Item>
            To prepare and file your group’s IRS and state paperwork, and to remind you of deadlines.
          </List.Item>
          <List.Item>To send receipts, renewal notices and messages about your account.</List.Item>
          <List.Item>To keep the service secure and to improve our pages.</List.Item>
        </List>
      </Section>

      <Section id="share" title="Who we share it with">
        <Text>
          <strong>We do not sell or rent your information, and we do not use it for advertising.</strong> We share it
          only:
        </Text>
        <List spacing="xs">
          <List.Item>with the IRS and state agencies, when we file on your group’s behalf;</List.Item>
          <List.Item>
            with companies that help us run the service (hosting, e-mail delivery, payment processing and spam
            protection), only for that purpose;
          </List.Item>
          <List.Item>when the law requires it, for example in response to a valid court order.</List.Item>
        </List>
        <Text>
          Some information about organizations, not individuals, is public by design: anyone can check on our{' '}
          <Anchor inherit component={Link} to="/verify-501c3">
            501(c)(3) verification page
          </Anchor>{' '}
          whether a group is listed under our IRS group exemption, because donors and schools need to confirm it. The
          IRS also makes exempt organizations’ returns public.
        </Text>
      </Section>

      <Section id="cookies" title="Cookies">
        <Text>We use a few small cookies that the site needs to work. We use no advertising or tracking cookies.</Text>
        <Table.ScrollContainer minWidth={560}>
          <Table withTableBorder verticalSpacing="sm" bg="white">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Cookie</Table.Th>
                <Table.Th scope="col">What it does</Table.Th>
                <Table.Th scope="col">How long it lasts</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {COOKIES.map((c) => (
                <Table.Tr key={c.name}>
                  <Table.Th scope="row">{c.name}</Table.Th>
                  <Table.Td>{c.purpose}</Table.Td>
                  <Table.Td>{c.lasts}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Text size="sm" c="gray.7">
          When spam protection (Google reCAPTCHA) is switched on for our forms, Google may set its own cookies under its
          privacy policy.
        </Text>
      </Section>

      <Section id="retention" title="How long we keep it">
        <List spacing="xs">
          <List.Item>
            Account, organization, filing and payment records: while your account is open, and then for seven years,
            because tax filings and payment records have to be kept.
          </List.Item>
          <List.Item>
            Messages sent through our forms: as long as we need them to answer and follow up, and no longer than two
            years.
          </List.Item>
          <List.Item>Sign-in sessions: deleted when they expire or when you sign out.</List.Item>
        </List>
      </Section>

      <Section id="choices" title="Your choices">
        <Text>
          You can ask us to show you the information we hold about you, to correct it, or to delete it when we no longer
          need to keep it by law. You can update most account details yourself after signing in.
        </Text>
      </Section>

      <Section id="security" title="Security">
        <Text>
          Our site uses encrypted connections, passwords are hashed, and only staff who need your information to do
          their work can see it. No system is perfectly secure; if something goes wrong that affects your information,
          we will tell you.
        </Text>
      </Section>

      <Section id="children" title="Children">
        <Text>
          Our service is for the adult volunteers who run nonprofit groups. We do not knowingly collect information from
          children under 13.
        </Text>
      </Section>

      <Section id="changes" title="Changes to this policy">
        <Text>
          If we change how we handle your information, we will update this page and, for important changes, let account
          holders know by e-mail.
        </Text>
      </Section>

      <Section id="contact-us" title="How to contact us">
        <Text>
          Questions about your privacy or a request about your information? Write to us through our{' '}
          <Anchor inherit component={Link} to="/contact">
            contact form
          </Anchor>
          {email && (
            <>
              , e-mail{' '}
              <Anchor inherit href={`mailto:${email}`}>
                {email}
              </Anchor>
            </>
          )}
          {phone && (
            <>
              , or call {name} at{' '}
              <Anchor inherit href={`tel:${phone.replace(/[^\d+]/g, '')}`}>
                {phone}
              </Anchor>
            </>
          )}
          .
        </Text>
      </Section>
    </Stack>
  );
}
