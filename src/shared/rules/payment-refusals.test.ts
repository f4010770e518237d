import { describe, expect, it } from 'vitest';
import { BANK_DECLINED, CARD_DECLINED, refusalMessage } from './payment-refusals.ts';

describe('refusal messages (docs/payments.md "Retrying after a decline")', () => {
  it('says the same for every reason a bank or the fraud screening gives for a card, so a card cannot be tested field by field', () => {
    // declined, address or zip mismatch, card code mismatch, bad number, expired, fraud screening, unknown, none
    for (const code of [
      '2',
      '3',
      '4',
      '41',
      '27',
      '44',
      '45',
      '65',
      '6',
      '37',
      '8',
      '250',
      '251',
      '254',
      'E00007',
      null,
    ])
      expect(refusalMessage('card', code)).toBe(CARD_DECLINED);
    expect(CARD_DECLINED).toBe(
      'The card was declined and nothing was charged. Check the card number, expiry date, card code and billing address you entered, or use another card or pay by bank account. If it keeps happening, call the bank that issued the card.',
    );
    expect(CARD_DECLINED).not.toMatch(/zip|address did not match|code did not match|expired|code \d/i);
  });

  it('speaks of the account, not the card, for a bank payment, with one message for every decline', () => {
    for (const code of ['2', '3', '4', '250', '65', 'E00007', undefined])
      expect(refusalMessage('bank', code)).toBe(BANK_DECLINED);
    expect(BANK_DECLINED).toContain('routing number, account number and name on the account');
  });

  it('keeps its own words for the refusals that say nothing about the card or account', () => {
    expect(refusalMessage('card', '11')).toContain('sent twice');
    expect(refusalMessage('bank', '11')).toBe(refusalMessage('card', '11'));
    expect(refusalMessage('card', '17')).toContain('We cannot take this type of card');
    expect(refusalMessage('card', '28')).toBe(refusalMessage('card', '17'));
    expect(refusalMessage('card', 'E00114')).toBe(
      'The card details expired before they reached us. Enter them again and press Pay.',
    );
    expect(refusalMessage('bank', 'E00114')).toContain('bank details');
  });
});
