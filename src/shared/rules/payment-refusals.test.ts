import { describe, expect, it } from 'vitest';
import { refusalMessage } from './payment-refusals.ts';

describe('refusal messages (docs/payments.md "Retrying after a decline")', () => {
  it('names the reason and the next step for the card codes the gateway answers', () => {
    expect(refusalMessage('card', '27')).toBe(
      'Your bank declined the card because the billing address or zip code did not match. Check the address and zip code your bank has for the card, or use another card.',
    );
    expect(refusalMessage('card', '65')).toBe(refusalMessage('card', '44'));
    expect(refusalMessage('card', '65')).toContain('card code did not match');
    expect(refusalMessage('card', '8')).toBe('The card has expired. Check the expiry date, or use another card.');
    expect(refusalMessage('card', '4')).toBe(refusalMessage('card', '2'));
    expect(refusalMessage('card', 'E00114')).toContain('Enter them again');
  });

  it('speaks of the account, not the card, for a bank payment', () => {
    expect(refusalMessage('bank', '2')).toBe(
      'Your bank declined the payment from this account. Check the account and routing numbers with your bank, use another account, or pay by card.',
    );
    expect(refusalMessage('bank', 'E00114')).toContain('bank details');
  });

  it('still gives the next step for a code it does not know, with the code', () => {
    expect(refusalMessage('card', 'E00007')).toBe(
      'The payment did not go through (code E00007). Nothing was charged. Try again, use another card, or call us if it keeps happening.',
    );
    expect(refusalMessage('bank', null)).toBe(
      'The payment did not go through. Nothing was charged. Try again, use another account, or call us if it keeps happening.',
    );
  });
});
