import { Anchor, Button, Group, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { formatCurrency } from '../../../shared/rules/formats.ts';
import { firstYearCents } from '../../../shared/rules/renewal.ts';
import { KitForm, TextField } from '../../components/form-kit/kit.tsx';
import { PasswordField } from '../../components/form-kit/password-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { pushEventThen } from '../../lib/analytics.ts';
import { toastFailure } from '../../lib/feedback.tsx';
import { setCsrfToken } from '../../lib/http.ts';
import type { applicationWizardContracts } from '../../../shared/contracts/application-wizard.ts';
import type { PublicLevel } from '../../../shared/schemas/content.ts';

type Level = PublicLevel;

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
      <Table.Caption ta="left" style={{ captionSide: 'top' }}>
        <Text size="sm" fw={500} span>
          Your first invoice
        </Text>
      </Table.Caption>
      <Table.Tbody>
        <Table.Tr>
          <Table.Th scope="row" fw={400}>
            {level.name}, first year
          </Table.Th>
          <Table.Td ta="right">{formatCurrency(level.priceCents)}</Table.Td>
        </Table.Tr>
        {off > 0 && (
          <Table.Tr>
            <Table.Th scope="row" fw={400}>
              Early-bird discount
            </Table.Th>
            <Table.Td ta="right">{formatCurrency(-off)}</Table.Td>
          </Table.Tr>
        )}
        <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-4)' }}>
          <Table.Th scope="row">Total</Table.Th>
          <Table.Td ta="right" fw={700} data-testid="first-invoice-total">
            {formatCurrency(total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

/**
 * docs/requirements/product.md tool 1, docs/requirements/screens.md "Application start form": e-mail, password with the five-bar strength meter, the
 * chosen level (sent as `level_id`), privacy link and "Let's go!". On success an
 * 'application_started' event is pushed to the tag manager; its callback (or at once without a tag
 * manager, or after a timeout) loads /application/create/{token} once (pushEventThen).
 * A 422 shows the errors under the fields; any other failure toasts "That didn't work." (docs/requirements/errors.md).
 */
export function ApplicationStartForm({ level }: { level: Level }) {
  const [leaving, setLeaving] = useState(false);

  const kit = useServerForm({
    route: routeAt<typeof applicationWizardContracts.start>('POST', '/application/start'),
    defaultValues: { email: '', password: '' },
    // Loaded when the form is first used: the chosen level shows the form without zod (docs/requirements/platform.md §6).
    loadSchema: () =>
      import('../../../shared/schemas/application.ts').then((m) =>
        m.applicationStartSchema.pick({ email: true, password: true }),
      ),
    captchaAction: 'application_start',
    isClearing: false,
    toPayload: (v) => ({ ...v, level_id: level.id }),
    onSuccess: (res) => {
      if (res.csrfToken) setCsrfToken(res.csrfToken);
      setLeaving(true);
      // A full load, so the page carries the new session's CSRF token and user.
      pushEventThen('application_started', { level_id: level.id }, () =>
        window.location.assign(`/application/create/${encodeURIComponent(res.token)}`),
      );
    },
    onFailure: (failure) => {
      // A 429 is shown by the form itself, with when to try again.
      if (failure.status !== 422 && failure.status !== 429) toastFailure();
    },
  });

  const busy = kit.submitting || leaving;
  return (
    <KitForm kit={kit} label="Start your application">
      <div>
        <Text size="sm" fw={500}>
          Level
        </Text>
        <Text fw={700} data-testid="chosen-level">
          {level.name}
        </Text>
        <input type="hidden" name="level_id" value={level.id} />
      </div>
      <FirstInvoice level={level} />
      <TextField name="email" label="E-mail" type="email" required autoComplete="email" />
      <PasswordField name="password" label="Password" required withMeter />
      <Text size="sm" c="gray.7">
        We use your e-mail to sign you in and to send your application link. See our{' '}
        <Anchor component={Link} to="/privacy" inherit>
          privacy policy
        </Anchor>
        .
      </Text>
      <Group>
        <Button type="submit" loading={busy} disabled={kit.hasErrors || busy}>
          Let's go!
        </Button>
      </Group>
    </KitForm>
  );
}
