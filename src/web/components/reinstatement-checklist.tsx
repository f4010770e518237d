import { Anchor, Badge, Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { reinstatementContracts } from '../../shared/contracts/reinstatement.ts';
import { longDate } from '../../shared/rules/compliance-calendar.ts';
import { formatCurrency } from '../../shared/rules/formats.ts';
import { confirmAction, toastFailure, toastSuccess } from '../lib/feedback.tsx';
import { call, HttpFailure } from '../lib/http.ts';
import { showDate } from '../lib/locale.ts';
import { queryOf } from '../lib/queries.ts';
import type { ContractAnswer } from '../../shared/contracts/contract.ts';

/** GET /api/account/reinstatement as it arrives. */
type ReinstatementView = ContractAnswer<typeof reinstatementContracts.view>;
type ReinstatementPath = ReinstatementView['paths'][number];

const FIT_BADGE: Record<ReinstatementPath['fit'], { label: string; color: string }> = {
  fits: { label: 'Fits', color: 'green' },
  may_fit: { label: 'May fit', color: 'yellow' },
  does_not_fit: { label: 'Does not fit', color: 'gray' },
};

/** One path that fits or may fit: its section, deadline, why, and its checklist. */
function PathChecklist({
  path,
  busy,
  onToggle,
}: {
  path: ReinstatementPath;
  busy: string | null;
  onToggle: (key: string, checked: boolean) => void;
}) {
  const titleId = `reinstatement-path-${path.section}`;
  const fit = FIT_BADGE[path.fit];
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4} size="h6" id={titleId}>
            Rev. Proc. 2014-11 §{path.section}: {path.title}
          </Title>
          <Badge color={fit.color} variant="light">
            {fit.label}
          </Badge>
        </Group>
        {path.deadline && (
          <Text size="sm" fw={700}>
            Apply by {longDate(path.deadline)}
          </Text>
        )}
        <Text size="sm">{path.reason}</Text>
        <Stack gap={8} role="group" aria-label={`Checklist: ${path.title}`}>
          {path.items.map((item) => (
            <Checkbox
              key={item.key}
              label={item.text}
              checked={item.checked_at !== null}
              disabled={busy === item.key}
              description={
                item.checked_at
                  ? `Ticked ${showDate(item.checked_at)}${item.checked_by ? ` by ${item.checked_by}` : ''}`
                  : undefined
              }
              onChange={(e) => onToggle(item.key, e.currentTarget.checked)}
            />
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * "Getting the exemption back", inside the standing card of a revoked organization on /account (the
 * group) and /admin/accounts/show/{id} (staff, with `accountId`), never on the public profile
 * (docs/irs-standing.md "Reinstatement"): the Rev. Proc. 2014-11 paths that fit or may fit, each with
 * its deadline (15 months from the revocation list's posting date) and a checklist the group ticks
 * (PUT /api/account/reinstatement, audited); the paths that do not fit, with why; and the
 * "Reinstatement application" level, which the group (or staff for it) orders after a confirmation:
 * an invoice, paid on /app/payments (POST /api/account/reinstatement/order), and once ordered, the
 * order's invoice and what is left to pay. Nothing shows for an organization that is not revoked.
 */
export function ReinstatementChecklist({ accountId }: { accountId?: number }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const [ordering, setOrdering] = useState(false);
  const navigate = useNavigate();
  const read = queryOf(reinstatementContracts.view, { query: accountId ? { account_id: accountId } : {} });
  const { queryKey } = read;
  const q = useQuery({ ...read, retry: false });
  const view = q.data;
  if (!view?.revocation) return null;

  const toggle = async (item: string, checked: boolean) => {
    setBusy(item);
    // The box follows the click at once; the server's answer then says who ticked it and when.
    queryClient.setQueryData(queryKey, (old) =>
      old
        ? {
            ...old,
            paths: old.paths.map((p) => ({
              ...p,
              items: p.items.map((i) =>
                i.key === item ? { ...i, checked_at: checked ? new Date().toISOString() : null, checked_by: null } : i,
              ),
            })),
          }
        : old,
    );
    try {
      const res = await call(reinstatementContracts.check, {
        body: { item, checked, ...(accountId ? { account_id: accountId } : {}) },
      });
      queryClient.setQueryData(queryKey, res.view);
    } catch (err) {
      toastFailure(err instanceof HttpFailure ? err.message : undefined);
      await queryClient.invalidateQueries({ queryKey });
    } finally {
      setBusy(null);
    }
  };

  const order = async () => {
    const level = view.level;
    if (!level) return;
    const ok = await confirmAction({
      title: `Order the ${level.name}?`,
      message: `An invoice of ${formatCurrency(level.price_cents)} is added to ${accountId ? "the group's" : 'your'} account, to pay by card, bank account or PayPal; once it is paid we prepare the application with ${accountId ? 'the group' : 'you'}. The IRS user fee is paid to the IRS.`,
      confirm: 'Order it',
    });
    if (!ok) return;
    setOrdering(true);
    try {
      const res = await call(reinstatementContracts.order, { body: accountId ? { account_id: accountId } : {} });
      toastSuccess(res.message);
      // The new invoice shows in the account's unpaid invoices and totals too.
      await queryClient.invalidateQueries();
      if (!accountId) await navigate('/app/payments');
    } catch (err) {
      toastFailure(err instanceof HttpFailure ? err.message : undefined);
      await queryClient.invalidateQueries({ queryKey });
    } finally {
      setOrdering(false);
    }
  };

  const open = view.paths.filter((p) => p.fit !== 'does_not_fit');
  const closed = view.paths.filter((p) => p.fit === 'does_not_fit');
  const { revocation } = view;
  return (
    <Stack gap="sm" component="section" aria-labelledby="reinstatement-title">
      <Title order={3} size="h5" id="reinstatement-title">
        Getting the exemption back
      </Title>
      <Text size="sm">
        Rev. Proc. 2014-11 gives these ways back.{' '}
        {revocation.posted_on
          ? `The 15 months are counted from ${longDate(revocation.posted_on)}, the day the IRS posted the organization on the Automatic Revocation List; if the IRS's revocation letter is dated later, they run from the letter's date instead.`
          : 'The revocation list gives no posting date: the 15 months run from it, or from the revocation letter if that is dated later.'}
      </Text>
      {open.map((path) => (
        <PathChecklist key={path.section} path={path} busy={busy} onToggle={(k, c) => void toggle(k, c)} />
      ))}
      {closed.length > 0 && (
        <div>
          <Text size="sm" fw={700}>
            Paths that do not fit
          </Text>
          <ul style={{ margin: 0, paddingInlineStart: '1.25rem' }}>
            {closed.map((p) => (
              <li key={p.section}>
                <Text size="sm">
                  §{p.section} {p.title}: {p.reason}
                </Text>
              </li>
            ))}
          </ul>
        </div>
      )}
      {view.level && (
        <Group gap="sm" wrap="wrap">
          {view.order ? (
            <Text size="sm">
              {view.level.name} ordered {showDate(view.order.ordered_at)}: invoice {view.order.number},{' '}
              {formatCurrency(view.order.value_cents)},{' '}
              {view.order.balance_cents > 0 ? `${formatCurrency(view.order.balance_cents)} to pay.` : 'paid.'}
            </Text>
          ) : null}
          {view.order && view.order.balance_cents > 0 && !accountId && (
            <Button component={Link} to="/app/payments" variant="light">
              Pay invoice {view.order.number}
            </Button>
          )}
          {!view.order && (
            <Button variant="light" loading={ordering} onClick={() => void order()}>
              {accountId ? 'Order it for the group' : 'Let us prepare it'}: {view.level.name},{' '}
              {formatCurrency(view.level.price_cents)}
            </Button>
          )}
          <Text size="xs" c="gray.7">
            The IRS user fee is paid to the IRS.{' '}
            <Anchor
              href="https://www.irs.gov/charities-non-profits/automatic-revocation-of-exemption"
              target="_blank"
              rel="noopener noreferrer"
              inherit
            >
              Automatic revocation and reinstatement (IRS)
            </Anchor>
          </Text>
        </Group>
      )}
    </Stack>
  );
}
