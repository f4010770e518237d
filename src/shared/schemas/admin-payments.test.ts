import { describe, expect, it } from 'vitest';
import { gatewayRefusalText, reviewPaymentAlertSchema } from './admin-payments.ts';

describe('the gateway\'s words for staff (docs/payments.md "Card testing")', () => {
  it('says what the gateway answered a declined or failed payment, with its code', () => {
    expect(
      gatewayRefusalText({
        status: 'declined',
        gateway_code: '2',
        gateway_message: 'This transaction has been declined.',
      }),
    ).toBe('Declined by the gateway: This transaction has been declined. (code 2)');
    expect(
      gatewayRefusalText({ status: 'failed', gateway_code: 'E00114', gateway_message: 'Invalid OTS Token.' }),
    ).toBe('Failed at the gateway: Invalid OTS Token. (code E00114)');
    expect(gatewayRefusalText({ status: 'declined', gateway_code: '27', gateway_message: null })).toBe(
      'Declined by the gateway (code 27)',
    );
    expect(gatewayRefusalText({ status: 'failed', gateway_code: null, gateway_message: ' No answer. ' })).toBe(
      'Failed at the gateway: No answer.',
    );
  });

  it('says nothing for other statuses, or when the gateway gave neither words nor a code', () => {
    expect(
      gatewayRefusalText({ status: 'paid', gateway_code: '1', gateway_message: 'This transaction has been approved.' }),
    ).toBeNull();
    expect(gatewayRefusalText({ status: 'held', gateway_code: '253', gateway_message: 'Held for review.' })).toBeNull();
    expect(gatewayRefusalText({ status: 'declined', gateway_code: null, gateway_message: '' })).toBeNull();
  });

  it('asks for a note when a payment alert is marked reviewed', () => {
    expect(reviewPaymentAlertSchema.safeParse({ note: '  Called the treasurer.  ' }).data).toEqual({
      note: 'Called the treasurer.',
    });
    const empty = reviewPaymentAlertSchema.safeParse({ note: '   ' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.message).toBe('The note field is required.');
    expect(reviewPaymentAlertSchema.safeParse({ note: 'x'.repeat(501) }).success).toBe(false);
  });
});
