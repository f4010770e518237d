import { describe, expect, it } from 'vitest';
import {
  bankDataForTokenizer,
  isValidRoutingNumber,
  ROUTING_NUMBER_MESSAGES,
  routingNumberError,
  TOKENIZER_BANK_LIMITS,
} from './aba.ts';

describe('ABA routing number checksum (docs/requirements/validation.md Bank)', () => {
  it('accepts real routing numbers', () => {
    // JPMorgan Chase NY, Bank of America MA, Wells Fargo CA, US Bank MN, Citibank NY.
    for (const rn of ['021000021', '011000015', '122105278', '091000022', '021000089']) {
      expect(isValidRoutingNumber(rn), rn).toBe(true);
      expect(routingNumberError(rn), rn).toBeNull();
    }
  });

  it('ignores surrounding whitespace', () => {
    expect(isValidRoutingNumber(' 021000021 ')).toBe(true);
  });

  it('refuses a number whose weighted sum (3, 7, 1) is not a multiple of 10', () => {
    // One digit off, and two neighbouring digits swapped: typical typing errors.
    for (const rn of ['021000022', '021000031', '120105278', '122105287', '123456789', '111111111']) {
      expect(isValidRoutingNumber(rn), rn).toBe(false);
      expect(routingNumberError(rn), rn).toBe(ROUTING_NUMBER_MESSAGES.checksum);
    }
  });

  it('refuses all zeros, which passes the sum but names no bank', () => {
    expect(routingNumberError('000000000')).toBe(ROUTING_NUMBER_MESSAGES.checksum);
  });

  it('needs exactly 9 digits', () => {
    for (const rn of [
      '',
      '02100002',
      '0210000210',
      '02100002a',
      '021-00002',
      '０２１００００２１',
      '２１000021',
      '21000021 1',
    ]) {
      expect(isValidRoutingNumber(rn), rn).toBe(false);
      expect(routingNumberError(rn), rn).toBe(ROUTING_NUMBER_MESSAGES.digits);
    }
    expect(routingNumberError(undefined as unknown as string)).toBe(ROUTING_NUMBER_MESSAGES.digits);
  });

  it('has clear messages', () => {
    expect(ROUTING_NUMBER_MESSAGES.digits).toBe('The routing number must be 9 digits.');
    expect(ROUTING_NUMBER_MESSAGES.checksum).toMatch(/^The routing number is not a valid bank routing number\./);
  });
});

describe('bankDataForTokenizer (docs/requirements/constants.md bank truncations)', () => {
  it('cuts the account number to 17, the routing number to 9 and the name to 22', () => {
    expect(TOKENIZER_BANK_LIMITS).toEqual({ accountNumber: 17, routingNumber: 9, nameOnAccount: 22 });
    expect(
      bankDataForTokenizer({
        nameOnAccount: 'Lincoln High School Booster Club',
        accountType: 'businessChecking',
        accountNumber: '12345678901234567890',
        routingNumber: '0210000210',
      }),
    ).toEqual({
      nameOnAccount: 'Lincoln High School Bo',
      accountType: 'businessChecking',
      accountNumber: '12345678901234567',
      routingNumber: '021000021',
    });
  });

  it('leaves short values alone, trimmed', () => {
    expect(
      bankDataForTokenizer({
        nameOnAccount: ' Jo Smith ',
        accountType: 'checking',
        accountNumber: '0001234 ',
        routingNumber: '021000021',
      }),
    ).toEqual({
      nameOnAccount: 'Jo Smith',
      accountType: 'checking',
      accountNumber: '0001234',
      routingNumber: '021000021',
    });
  });

  it('never cuts a name inside a character', () => {
    const name = `${'a'.repeat(21)}😀b`;
    expect(
      bankDataForTokenizer({
        nameOnAccount: name,
        accountType: 'savings',
        accountNumber: '1',
        routingNumber: '021000021',
      }).nameOnAccount,
    ).toBe(`${'a'.repeat(21)}😀`);
  });

  it('sends only the four tokenizer fields', () => {
    const form = {
      nameOnAccount: 'A',
      accountType: 'checking',
      accountNumber: '123',
      accountNumber_confirmation: '123',
      routingNumber: '021000021',
    };
    expect(Object.keys(bankDataForTokenizer(form)).sort()).toEqual([
      'accountNumber',
      'accountType',
      'nameOnAccount',
      'routingNumber',
    ]);
  });
});
