import { describe, expect, it } from 'vitest';
import { LINE_TYPES } from '../rules/billing.ts';
import { LINE_TYPE_LABELS, lineTypeLabel } from './invoices.ts';

describe('order-detail types in words', () => {
  it('names every line type the billing rules know', () => {
    for (const type of LINE_TYPES) expect(LINE_TYPE_LABELS[type], type).toBeTruthy();
    expect(lineTypeLabel('new_account')).toBe('New account');
    expect(lineTypeLabel('service_fee')).toBe('Service fee');
  });

  it('turns an unknown type into words instead of showing the code', () => {
    expect(lineTypeLabel('late_fee')).toBe('Late fee');
    expect(lineTypeLabel('')).toBe('');
  });
});
