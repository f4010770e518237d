import { describe, expect, it } from 'vitest';
import { financesQuery, hasReceipt, paymentMethodLabel, paymentStatusLabel } from './finances.ts';

describe('paymentMethodLabel (docs/requirements/product.md tool 14, /app/finances)', () => {
  it('names card and bank payments with what the gateway reported', () => {
    expect(paymentMethodLabel({ method: 'card', account_type: 'Visa', account_last4: 'XXXX1111' })).toBe(
      'Card Visa XXXX1111',
    );
    expect(paymentMethodLabel({ method: 'bank', account_type: 'eCheck', account_last4: 'XXXX1234' })).toBe(
      'Bank account eCheck XXXX1234',
    );
  });
  it('leaves out what the gateway did not report', () => {
    expect(paymentMethodLabel({ method: 'card', account_type: null, account_last4: null })).toBe('Card');
    expect(paymentMethodLabel({ method: 'bank', account_type: '', account_last4: 'XXXX1234' })).toBe(
      'Bank account XXXX1234',
    );
  });
  it('names PayPal and zero payments without account details', () => {
    expect(paymentMethodLabel({ method: 'paypal', account_type: 'PayPal', account_last4: null })).toBe('PayPal');
    expect(paymentMethodLabel({ method: 'zero', account_type: null, account_last4: null })).toBe(
      'Discount (no payment)',
    );
  });
});

describe('payment statuses in words', () => {
  it('reads every listed status', () => {
    expect(['paid', 'held', 'pending', 'declined', 'failed', 'voided', 'refunded'].map(paymentStatusLabel)).toEqual([
      'Paid',
      'Held for review',
      'Not confirmed yet',
      'Declined',
      'Failed',
      'Voided (nothing charged)',
      'Refunded',
    ]);
    expect(paymentStatusLabel('disputed')).toBe('disputed');
  });
  it('gives receipts to payments whose money was taken: paid, held and refunded', () => {
    expect(
      ['paid', 'held', 'pending', 'declined', 'failed', 'awaiting_consent', 'cancelled', 'voided', 'refunded'].filter(
        hasReceipt,
      ),
    ).toEqual(['paid', 'held', 'refunded']);
  });
});

describe('financesQuery', () => {
  it('reads the account id and a 1-based page, page 1 for anything unreadable', () => {
    expect(financesQuery.parse({ account_id: '12', page: '3' })).toEqual({ account_id: 12, page: 3 });
    expect(financesQuery.parse({ page: 'x' })).toEqual({ account_id: undefined, page: 1 });
    expect(financesQuery.parse({ account_id: '', page: '0' })).toEqual({ account_id: undefined, page: 1 });
  });
  it('refuses an account id that is not a positive integer', () => {
    for (const account_id of ['abc', '-1', '1.5', '99999999999'])
      expect(financesQuery.safeParse({ account_id }).success, account_id).toBe(false);
  });
});
