import { describe, expect, it } from 'vitest';
import { actionWords, auditDetailWords, fieldWords, valueWords } from './audit-words.ts';

describe('the audit log in words', () => {
  it('names known actions and reads others part by part', () => {
    expect(actionWords('discount.created')).toBe('Created a discount code');
    expect(actionWords('auth.login')).toBe('Signed in');
    expect(actionWords('work_item.note_added')).toBe('Work item: note added');
    expect(actionWords('payment.refunded')).toBe('Payment: refunded');
    expect(actionWords('limit.reached')).toBe('Was refused past a limit (too many attempts)');
    expect(actionWords('filing_extension.recorded')).toBe('Recorded a Form 8868 extension');
    expect(actionWords('filing_extension.removed')).toBe('Removed a Form 8868 extension');
  });

  it('reads a Form 8868 extension as its period, return and dates', () => {
    expect(
      auditDetailWords({
        extensionId: 4,
        periodEnd: '2025-06',
        returnForm: '990-EZ',
        filedOn: '2025-11-10',
        extendedDue: '2026-05-15',
        recordedAs: 'account',
        onBehalf: false,
      }).facts,
    ).toEqual([
      'Extension: #4',
      'Period end: 2025-06',
      'Return form: 990-EZ',
      'Filed on: 2025-11-10',
      'Extended due date: 2026-05-15',
      'Recorded as: account',
      'On behalf of the account: no',
    ]);
  });

  it('reads a limit refusal as the limit, what it counts per, the count and until when', () => {
    expect(
      auditDetailWords({
        rule: 'payment_declines_per_account',
        per: 'account',
        subject: '42',
        count: 5,
        max: 5,
        until: '2026-11-29T08:06:00.000Z',
      }).facts,
    ).toEqual([
      'Limit: payment_declines_per_account',
      'Counted per: account',
      'Subject: 42',
      'Count: 5',
      'Allowed: 5',
      'Until: 2026-11-29 08:06 UTC',
    ]);
  });

  it('turns keys into words', () => {
    expect(fieldWords('early_bird_price_cents')).toBe('Early bird price');
    expect(fieldWords('discountId')).toBe('Discount');
    expect(fieldWords('is_suspended_from_basic_renewal')).toBe('Suspended from basic renewal');
    expect(fieldWords('ein')).toBe('EIN');
  });

  it('shows cents as dollars, booleans as yes/no and nothing as empty', () => {
    expect(valueWords('price_cents', 69500)).toBe('$695.00');
    expect(valueWords('amountCents', -2500)).toBe('-$25.00');
    expect(valueWords('active', true)).toBe('yes');
    expect(valueWords('group_id', null)).toBe('empty');
    expect(valueWords('ends_at', '2026-12-31T23:59:00.000Z')).toBe('2026-12-31 23:59 UTC');
    expect(valueWords('count', 1234)).toBe('1,234');
  });

  it('reads both shapes of changes as "Field: before → after" and the rest as facts', () => {
    expect(
      auditDetailWords({ levelId: 3, changes: { price_cents: [69500, 64500], early_bird_price_cents: [null, 59500] } }),
    ).toEqual({
      changes: ['Price: $695.00 → $645.00', 'Early bird price: empty → $595.00'],
      facts: ['Level: #3'],
    });
    expect(
      auditDetailWords({ accountId: 7, changes: { is_suspended_from_basic_renewal: { from: false, to: true } } }),
    ).toEqual({
      changes: ['Suspended from basic renewal: no → yes'],
      facts: ['Account: #7'],
    });
  });

  it('compares a before/after pair field by field and reads nested facts one level down', () => {
    expect(
      auditDetailWords({ before: { status: 'open', note: 'x' }, after: { status: 'resolved', note: 'x' } }).changes,
    ).toEqual(['Status: open → resolved']);
    expect(auditDetailWords({ import_id: 4, done: { added: 3, removed: 1 } }).facts).toEqual([
      'Import: #4',
      'Done: added 3, removed 1',
    ]);
    expect(auditDetailWords({})).toEqual({ changes: [], facts: [] });
  });
});
