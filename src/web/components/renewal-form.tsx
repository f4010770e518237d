import { Alert, Anchor, Button, Checkbox, Group, List, Stack, Table, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { accountOverviewContracts } from '../../shared/contracts/account-overview.ts';
import { accountSettingsContracts } from '../../shared/contracts/account-settings.ts';
import { centsToDollarsText } from '../../shared/rules/billing.ts';
import { formatCurrency } from '../../shared/rules/formats.ts';
import {
  initialRenewalChoice,
  isEarlyBird,
  renewalTotals,
  setIncorporation,
  setUpgrade,
  type RenewalAccount,
  type RenewalChoice,
  type RenewalLevel,
  type RenewalLine,
} from '../../shared/rules/renewal.ts';
import { pushEventThen } from '../lib/analytics.ts';
import { confirmAction } from '../lib/feedback.tsx';
import { call, HttpFailure } from '../lib/http.ts';
import { showDate } from '../lib/locale.ts';
import type { ContractAnswer } from '../../shared/contracts/contract.ts';
import type { RenewalPayloadInput } from '../../shared/schemas/renewal.ts';

/** What the renewal form shows (GET /api/account/renewal); prices in cents. */
export type RenewalScreen = ContractAnswer<typeof accountOverviewContracts.renewal>;

/** The API's snake_case level and account as the shapes of src/shared/rules/renewal.ts. */
function renewalModel(screen: RenewalScreen): { level: RenewalLevel; account: RenewalAccount } {
  const { level: l, account: a } = screen;
  const up = l.upgrade_to;
  return {
    level: {
      id: l.id,
      name: l.name,
      priceCents: l.price_cents,
      priceDiscountCents: l.price_discount_cents,
      upgradeTo: up
        ? {
            id: up.id,
            upgradeCents: up.upgrade_cents,
            upgradeDiscountCents: up.upgrade_discount_cents,
            incPackageCents: up.inc_package_cents,
            incPackageDiscountCents: up.inc_package_discount_cents,
          }
        : null,
    },
    account: {
      renewalDueAt: a.renewal_due_at,
      bonusBalanceCents: a.bonus_balance_cents,
      isSuspendedFromBasicRenewal: a.is_suspended_from_basic_renewal,
    },
  };
}

const dollars = centsToDollarsText;

/** A price as charged, with the struck full price beside it when the early-bird price is lower. */
function Price({ line }: { line: RenewalLine | undefined }) {
  if (!line) return null;
  return (
    <Text span fw={600} style={{ whiteSpace: 'nowrap' }}>
      {formatCurrency(line.valueCents)}
      {line.valueCents !== line.priceCents && (
        <Text
          span
          c="gray.7"
          fw={400}
          td="line-through"
          ml={6}
          aria-label={`instead of ${formatCurrency(line.priceCents)}`}
        >
          {formatCurrency(line.priceCents)}
        </Text>
      )}
    </Text>
  );
}

export function RenewalForm({ screen, accountId }: { screen: RenewalScreen; accountId: number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { level, account } = useMemo(() => renewalModel(screen), [screen]);
  const [choice, setChoice] = useState<RenewalChoice>(() => initialRenewalChoice(level, account));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const now = new Date();
  const early = isEarlyBird(account.renewalDueAt, now, screen.extension_days);
  const totals = renewalTotals(level, account, choice, now, screen.extension_days);
  // Every option's price, as the rules would charge it.
  const all = renewalTotals(
    level,
    account,
    { isUpgradeSelected: true, isIncorporationSelected: true, newLevelId: level.upgradeTo?.id ?? level.id },
    now,
    screen.extension_days,
  );
  const priceOf = (type: RenewalLine['type']) => all.lines.find((l) => l.type === type);
  const { options } = screen;
  const upgradeName = screen.level.upgrade_to?.name ?? 'the next level';
  const dueAt = account.renewalDueAt;
  const earlyUntil = dueAt ? new Date(Date.parse(dueAt) + Math.max(0, screen.extension_days) * 86_400_000) : null;

  const change = (next: RenewalChoice) => {
    setChoice(next);
    setFailure(null);
  };

  const submit = async () => {
    setFailure(null);
    if (screen.needs_990_copy) {
      const ok = await confirmAction({
        title: 'We need a copy of your latest 990',
        message:
          "To renew, we need a copy of your organization's latest 990-series return (990-N, 990-EZ or 990). If we do not receive it, your renewal may be cancelled and refunded.",
        confirm: 'I understand',
        cancel: 'Cancel',
        confirmColor: 'blue',
      });
      if (!ok) return;
    }
    const group = screen.account.group;
    if (group?.is_billed_as_group) {
      const ok = await confirmAction({
        title: 'Are you sure?',
        message: `${screen.account.name} belongs to a group (${group.label}) that may be billed collectively. Renewing here bills this organization on its own.`,
        confirm: 'Renew individually',
        cancel: 'Cancel',
        confirmColor: 'blue',
      });
      if (!ok) {
        navigate('/account');
        return;
      }
    }
    const payload: RenewalPayloadInput = {
      account_id: accountId,
      current_level_id: level.id,
      new_level_id: choice.newLevelId,
      is_upgrade_selected: choice.isUpgradeSelected ? 1 : 0,
      is_incorporation_selected: choice.isIncorporationSelected ? 1 : 0,
      totals: {
        subtotal: dollars(totals.subtotal),
        discount_total: dollars(totals.discount_total),
        bonus_total: dollars(totals.bonus_total),
        order_total: dollars(totals.order_total),
      },
      bonus_balance: dollars(account.bonusBalanceCents),
    };
    setBusy(true);
    try {
      // The screen's `action` names this route (docs/requirements/calls.md); its contract types the call.
      const res = await call(accountSettingsContracts.renew, { body: payload });
      // A renewal bills a new invoice: every cached view of the account (the renewal form, an
      // admin's account page the server may send us back to) is stale now.
      void queryClient.invalidateQueries();
      pushEventThen(
        'renewal-submitted',
        {
          account_id: accountId,
          invoice_id: res.invoice_id,
          current_level_id: level.id,
          new_level_id: choice.newLevelId,
          is_upgrade_selected: choice.isUpgradeSelected,
          is_incorporation_selected: choice.isIncorporationSelected,
          order_total: payload.totals.order_total,
        },
        () => navigate(res.redirect),
      );
    } catch (err) {
      const f = err instanceof HttpFailure ? err : null;
      const first = f ? Object.values(f.errors).find((list) => list?.length)?.[0] : undefined;
      setFailure(first ?? f?.message ?? 'Something went wrong!');
      setBusy(false);
    }
  };

  return (
    <Stack gap="md">
      {screen.window.state !== 'open' && (
        <Alert color="gray" variant="light" title="Outside the renewal period">
          {screen.window.state === 'not_yet'
            ? `The account holder can renew from ${screen.window.opens_at ? showDate(screen.window.opens_at) : ''}.`
            : `The grace period ended on ${screen.window.closes_at ? showDate(screen.window.closes_at) : ''}.`}{' '}
          As staff, you can renew it now.
        </Alert>
      )}
      <div>
        <Text>
          {dueAt ? (
            <>
              Your {level.name} membership is due for renewal on <strong>{showDate(dueAt)}</strong>.
            </>
          ) : (
            <>Renew your {level.name} membership for another year.</>
          )}
        </Text>
        <Text size="sm" c={early ? 'green' : 'gray.7'}>
          {early
            ? earlyUntil
              ? `Early-bird prices apply until ${showDate(earlyUntil)}.`
              : 'Early-bird prices apply.'
            : 'Early-bird prices no longer apply.'}
        </Text>
      </div>

      {screen.level.renewal_features.length > 0 && (
        <div>
          <Text fw={600} mb={4}>
            Your renewal includes
          </Text>
          <List size="sm" spacing={2}>
            {screen.level.renewal_features.map((f) => (
              <List.Item key={f}>{f}</List.Item>
            ))}
          </List>
        </div>
      )}

      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Text size="sm">Annual renewal — {level.name}</Text>
          <Price line={priceOf('renewal')} />
        </Group>
        {options.canUpgrade && (
          <>
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Checkbox
                label={`Upgrade to ${upgradeName}`}
                description={
                  options.isUpgradeLocked
                    ? 'Your account renews with the upgrade only: the basic renewal is no longer offered to it.'
                    : undefined
                }
                checked={choice.isUpgradeSelected}
                disabled={options.isUpgradeLocked || busy}
                onChange={(e) => change(setUpgrade(choice, e.currentTarget.checked, level, account))}
              />
              <Price line={priceOf('upgrade')} />
            </Group>
            {options.canIncorporate && (
              <Group justify="space-between" align="flex-start" wrap="nowrap">
                <Checkbox
                  label="Incorporation package"
                  description="Comes with the upgrade."
                  checked={choice.isIncorporationSelected}
                  disabled={busy}
                  onChange={(e) => change(setIncorporation(choice, e.currentTarget.checked, level, account))}
                />
                <Price line={priceOf('incorporation')} />
              </Group>
            )}
          </>
        )}
      </Stack>

      <Table aria-label="Renewal totals" withRowBorders={false} verticalSpacing={4} horizontalSpacing={0}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row" fw={400}>
              Subtotal
            </Table.Th>
            <Table.Td ta="right">{formatCurrency(totals.subtotal)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row" fw={400}>
              Early-bird discount
            </Table.Th>
            <Table.Td ta="right">{formatCurrency(-totals.discount_total)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row" fw={400}>
              Bonus balance used
            </Table.Th>
            <Table.Td ta="right">{formatCurrency(-totals.bonus_total)}</Table.Td>
          </Table.Tr>
          <Table.Tr style={{ borderTop: '1px solid var(--mantine-color-gray-4)' }}>
            <Table.Th scope="row">Order total</Table.Th>
            <Table.Td ta="right" fw={700} data-testid="renewal-order-total">
              {formatCurrency(totals.order_total)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>

      <Alert color="blue" variant="light" title="Before you renew" role="note">
        Your renewal keeps your exemption in good standing for another year. Make sure your{' '}
        <Anchor inherit component={Link} to="/irs-form-990">
          IRS Form 990
        </Anchor>{' '}
        is filed and check your{' '}
        <Anchor inherit component={Link} to="/state-registration#us_map">
          state registration
        </Anchor>{' '}
        requirements. Thinking about the incorporation package? Read about{' '}
        <Anchor inherit component={Link} to="/incorporation-and-ein">
          incorporation and getting an EIN
        </Anchor>
        .
      </Alert>

      {failure && (
        <Alert color="red" title="Oops..." role="alert">
          {failure}
        </Alert>
      )}

      <Group>
        <Button onClick={() => void submit()} loading={busy}>
          Renew now
        </Button>
      </Group>
    </Stack>
  );
}
