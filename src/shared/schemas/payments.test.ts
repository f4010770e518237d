import { describe, expect, it } from 'vitest';
import { ROUTING_NUMBER_MESSAGES } from '../rules/aba.ts';
import { toFieldErrors } from '../validation.ts';
import {
  BANK_ACCOUNT_TYPE_LABELS,
  BANK_ACCOUNT_TYPES,
  bankFormSchema,
  bankPaymentSchema,
  cardExpiryYears,
  cardFormSchema,
  creditCardPaymentSchema,
  discountReserveSchema,
  NO_INVOICES_SELECTED,
  NUMBERS_NOT_ACCEPTED,
  stripCardNumber,
  walletPaymentSchema,
  zeroPaymentSchema,
} from './payments.ts';

const now = new Date(2026, 5, 15); // 15 June 2026, local time
const card = cardFormSchema(now);

const goodCard = {
  cardNumber: '4111-1111-1111-1111',
  expMonth: '09',
  expYear: '2028',
  cardCode: '123',
  name: 'Pat Doe',
  address: '1 Main St',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  phone: '217-555-0100',
};

const errorsOf = (r: { success: boolean; error?: unknown }) => (r.success ? {} : toFieldErrors(r.error as never));

describe('cardFormSchema (docs/requirements/validation.md Credit card)', () => {
  it('accepts a card and strips dashes and spaces from its number', () => {
    expect(card.parse(goodCard)).toEqual({ ...goodCard, cardNumber: '4111111111111111' });
    expect(card.parse({ ...goodCard, cardNumber: ' 4111 1111 1111 1111 ' }).cardNumber).toBe('4111111111111111');
    expect(stripCardNumber('4111-1111 1111-1111')).toBe('4111111111111111');
  });

  it('gives every required message with the labels of docs/requirements/validation.md', () => {
    const r = card.safeParse({});
    expect(errorsOf(r)).toEqual({
      cardNumber: ['The card number field is required.'],
      expMonth: ['The month field is required.'],
      expYear: ['The year field is required.'],
      cardCode: ['The card code field is required.'],
      name: ['The name on card field is required.'],
      address: ['The address field is required.'],
      city: ['The city field is required.'],
      state: ['The state field is required.'],
      zip: ['The zip field is required.'],
    });
  });

  it('treats blank and dash-only input as missing', () => {
    const blank = Object.fromEntries(Object.keys(goodCard).map((k) => [k, '  ']));
    const e = errorsOf(card.safeParse({ ...blank, cardNumber: '- -' }));
    expect(e.cardNumber).toEqual(['The card number field is required.']);
    expect(Object.keys(e).sort()).toEqual([
      'address',
      'cardCode',
      'cardNumber',
      'city',
      'expMonth',
      'expYear',
      'name',
      'state',
      'zip',
    ]);
  });

  it('does not require the phone', () => {
    expect(card.parse({ ...goodCard, phone: undefined }).phone).toBe('');
  });

  it('limits the card number to 20 digits and to digits', () => {
    expect(card.parse({ ...goodCard, cardNumber: '4'.repeat(20) }).cardNumber).toBe('4'.repeat(20));
    expect(errorsOf(card.safeParse({ ...goodCard, cardNumber: '4'.repeat(21) }))).toEqual({
      cardNumber: ['The card number field must not be greater than 20 characters.'],
    });
    expect(errorsOf(card.safeParse({ ...goodCard, cardNumber: '4111 1111 abcd 1111' }))).toEqual({
      cardNumber: ['The card number field format is invalid.'],
    });
  });

  it('limits the zip to 10 characters', () => {
    expect(card.parse({ ...goodCard, zip: '62701-1234' }).zip).toBe('62701-1234');
    expect(errorsOf(card.safeParse({ ...goodCard, zip: '62701-12345' }))).toEqual({
      zip: ['The zip field must not be greater than 10 characters.'],
    });
  });

  it('reads the month as 01..12', () => {
    expect(card.parse({ ...goodCard, expMonth: '1' }).expMonth).toBe('01');
    expect(card.parse({ ...goodCard, expMonth: 12 }).expMonth).toBe('12');
    for (const expMonth of ['0', '00', '13', 'June']) {
      expect(errorsOf(card.safeParse({ ...goodCard, expMonth })), expMonth).toEqual({
        expMonth: ['The selected month is invalid.'],
      });
    }
  });

  it('offers expiry years from the current year through 10 years ahead', () => {
    expect(cardExpiryYears(now)).toEqual([
      '2026',
      '2027',
      '2028',
      '2029',
      '2030',
      '2031',
      '2032',
      '2033',
      '2034',
      '2035',
      '2036',
    ]);
    expect(card.parse({ ...goodCard, expYear: '2026' }).expYear).toBe('2026');
    expect(card.parse({ ...goodCard, expYear: 2036 }).expYear).toBe('2036');
    for (const expYear of ['2025', '2037', '26', 'soon']) {
      expect(errorsOf(card.safeParse({ ...goodCard, expYear })), expYear).toEqual({
        expYear: ['The selected year is invalid.'],
      });
    }
    expect(cardFormSchema(new Date(2030, 0, 1)).safeParse({ ...goodCard, expYear: '2029' }).success).toBe(false);
    expect(cardFormSchema(new Date(2030, 0, 1)).safeParse({ ...goodCard, expYear: '2040' }).success).toBe(true);
  });

  it('takes a 3- or 4-digit card code', () => {
    expect(card.parse({ ...goodCard, cardCode: '1234' }).cardCode).toBe('1234');
    expect(errorsOf(card.safeParse({ ...goodCard, cardCode: '12' }))).toEqual({
      cardCode: ['The card code field format is invalid.'],
    });
    expect(errorsOf(card.safeParse({ ...goodCard, cardCode: 'abc' }))).toEqual({
      cardCode: ['The card code field format is invalid.'],
    });
    expect(errorsOf(card.safeParse({ ...goodCard, cardCode: '12345' })).cardCode?.[0]).toBe(
      'The card code field must not be greater than 4 characters.',
    );
  });

  it('takes a state code in any case and refuses an unknown one', () => {
    expect(card.parse({ ...goodCard, state: 'dc' }).state).toBe('DC');
    expect(errorsOf(card.safeParse({ ...goodCard, state: 'XX' }))).toEqual({
      state: ['The selected state is invalid.'],
    });
  });
});

const goodBank = {
  nameOnAccount: 'Lincoln High Boosters',
  accountType: 'businessChecking',
  accountNumber: '000123456789',
  accountNumber_confirmation: '000123456789',
  routingNumber: '021000021',
};

describe('bankFormSchema (docs/requirements/validation.md Bank)', () => {
  it('accepts a bank account', () => {
    expect(bankFormSchema.parse(goodBank)).toEqual(goodBank);
  });

  it('has the three account types with their labels', () => {
    expect(BANK_ACCOUNT_TYPES).toEqual(['checking', 'savings', 'businessChecking']);
    expect(BANK_ACCOUNT_TYPE_LABELS).toEqual({
      checking: 'Personal checking',
      savings: 'Personal savings',
      businessChecking: 'Business checking',
    });
    for (const accountType of BANK_ACCOUNT_TYPES)
      expect(bankFormSchema.parse({ ...goodBank, accountType }).accountType).toBe(accountType);
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, accountType: 'brokerage' }))).toEqual({
      accountType: ['The selected account type is invalid.'],
    });
  });

  it('requires every field', () => {
    expect(errorsOf(bankFormSchema.safeParse({}))).toEqual({
      nameOnAccount: ['The name on account field is required.'],
      accountType: ['The account type field is required.'],
      accountNumber: ['The account number field is required.'],
      accountNumber_confirmation: ['The account number confirmation field is required.'],
      routingNumber: ['The routing number field is required.'],
    });
  });

  it('needs the two account numbers to match', () => {
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, accountNumber_confirmation: '000123456780' }))).toEqual({
      accountNumber_confirmation: ['The account number fields must match.'],
    });
  });

  it('refuses an account number equal to the routing number', () => {
    expect(
      errorsOf(
        bankFormSchema.safeParse({ ...goodBank, accountNumber: '021000021', accountNumber_confirmation: '021000021' }),
      ),
    ).toEqual({ routingNumber: ['The account number cannot be the same as the routing number.'] });
  });

  it('shows the cross-field messages even while other fields are missing', () => {
    const e = errorsOf(
      bankFormSchema.safeParse({
        accountNumber: '021000021',
        accountNumber_confirmation: '1',
        routingNumber: '021000021',
      }),
    );
    expect(e.accountNumber_confirmation).toEqual(['The account number fields must match.']);
    expect(e.routingNumber).toEqual(['The account number cannot be the same as the routing number.']);
    expect(e.nameOnAccount).toEqual(['The name on account field is required.']);
  });

  it('keeps the max lengths: name 255, account 17, confirmation 40, routing 9', () => {
    expect(bankFormSchema.safeParse({ ...goodBank, nameOnAccount: 'n'.repeat(255) }).success).toBe(true);
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, nameOnAccount: 'n'.repeat(256) }))).toEqual({
      nameOnAccount: ['The name on account field must not be greater than 255 characters.'],
    });
    const seventeen = '1'.repeat(17);
    expect(
      bankFormSchema.safeParse({ ...goodBank, accountNumber: seventeen, accountNumber_confirmation: seventeen })
        .success,
    ).toBe(true);
    expect(
      errorsOf(
        bankFormSchema.safeParse({
          ...goodBank,
          accountNumber: '1'.repeat(18),
          accountNumber_confirmation: '1'.repeat(18),
        }),
      ),
    ).toEqual({ accountNumber: ['The account number field must not be greater than 17 characters.'] });
    expect(
      errorsOf(bankFormSchema.safeParse({ ...goodBank, accountNumber_confirmation: '1'.repeat(41) }))
        .accountNumber_confirmation?.[0],
    ).toBe('The account number confirmation field must not be greater than 40 characters.');
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, routingNumber: '0210000210' }))).toEqual({
      routingNumber: ['The routing number field must not be greater than 9 characters.'],
    });
  });

  it('checks the routing number locally with the ABA checksum', () => {
    for (const routingNumber of ['011000015', '122105278'])
      expect(bankFormSchema.safeParse({ ...goodBank, routingNumber }).success, routingNumber).toBe(true);
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, routingNumber: '021000022' }))).toEqual({
      routingNumber: [ROUTING_NUMBER_MESSAGES.checksum],
    });
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, routingNumber: '02100002' }))).toEqual({
      routingNumber: [ROUTING_NUMBER_MESSAGES.digits],
    });
    expect(errorsOf(bankFormSchema.safeParse({ ...goodBank, routingNumber: '02100002x' }))).toEqual({
      routingNumber: [ROUTING_NUMBER_MESSAGES.digits],
    });
  });
});

describe('discountReserveSchema (POST /app/discount/reserve)', () => {
  it('upper-cases and trims the code', () => {
    expect(discountReserveSchema.parse({ code: ' spring25 ' })).toEqual({ code: 'SPRING25' });
  });
  it('requires a code', () => {
    expect(errorsOf(discountReserveSchema.safeParse({ code: '  ' }))).toEqual({
      code: ['The code field is required.'],
    });
    expect(errorsOf(discountReserveSchema.safeParse({}))).toEqual({ code: ['The code field is required.'] });
  });
});

const opaque = { dataDescriptor: 'COMMON.ACCEPT.INAPP.PAYMENT', dataValue: 'eyJjb2RlIjoiNTBfMl8wNjAwMDUzMDE' };
const key = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b';
const base = { value: '295.00', invoices: [1, '2'], discount_id: '', idempotency_key: key };
const billTo = { name: 'Pat Doe', address: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701', phone: '' };

describe('creditCardPaymentSchema (docs/requirements/entities.md Credit card, without card numbers)', () => {
  it('accepts opaque data and the billing address', () => {
    expect(creditCardPaymentSchema.parse({ ...billTo, ...opaque, ...base, type: 'credit_card' })).toEqual({
      ...billTo,
      ...opaque,
      value: 295,
      invoices: [1, 2],
      discount_id: null,
      idempotency_key: key,
      type: 'credit_card',
    });
  });

  it('defaults the type and drops the expiry', () => {
    const out = creditCardPaymentSchema.parse({ ...billTo, ...opaque, ...base, expMonth: '09', expYear: '2028' });
    expect(out.type).toBe('credit_card');
    expect(out).not.toHaveProperty('expMonth');
    expect(out).not.toHaveProperty('expYear');
  });

  it('refuses a card number or card code', () => {
    expect(
      errorsOf(
        creditCardPaymentSchema.safeParse({
          ...billTo,
          ...opaque,
          ...base,
          cardNumber: '4111111111111111',
          cardCode: '123',
        }),
      ),
    ).toEqual({ cardNumber: [NUMBERS_NOT_ACCEPTED], cardCode: [NUMBERS_NOT_ACCEPTED] });
    expect(
      creditCardPaymentSchema.safeParse({ ...billTo, ...opaque, ...base, cardNumber: '', cardCode: null }).success,
    ).toBe(true);
  });

  it('requires the opaque data, the address, the invoices and an idempotency key', () => {
    expect(errorsOf(creditCardPaymentSchema.safeParse({}))).toEqual({
      name: ['The name on card field is required.'],
      address: ['The address field is required.'],
      city: ['The city field is required.'],
      state: ['The state field is required.'],
      zip: ['The zip field is required.'],
      dataDescriptor: ['The data descriptor field is required.'],
      dataValue: ['The data value field is required.'],
      value: ['The value field is required.'],
      invoices: [NO_INVOICES_SELECTED],
      idempotency_key: ['The idempotency key field is required.'],
    });
  });

  it('refuses another payment type', () => {
    expect(
      errorsOf(creditCardPaymentSchema.safeParse({ ...billTo, ...opaque, ...base, type: 'bank_account' })),
    ).toEqual({ type: ['The selected type is invalid.'] });
  });
});

describe('payment fields', () => {
  const parse = (over: Record<string, unknown>) =>
    walletPaymentSchema.safeParse({ tx_id: 'T1', token: 'EC-1', payer_id: 'P1', ...base, ...over });

  it('reads the value as decimal dollars with at most 2 decimals', () => {
    expect(parse({ value: 12.5 }).data?.value).toBe(12.5);
    expect(parse({ value: '0' }).data?.value).toBe(0);
    expect(parse({ value: '1000000' }).data?.value).toBe(1000000);
    for (const value of ['12.345', 'abc', '1e3', '-1', -1, 0.001, '1000000.01']) {
      expect(parse({ value }).success, String(value)).toBe(false);
    }
    expect(errorsOf(parse({ value: '12.345' }))).toEqual({ value: ['The value field format is invalid.'] });
    expect(errorsOf(parse({ value: -1 }))).toEqual({ value: ['The value field must be between 0 and 1000000.'] });
  });

  it('reads invoices from an array or a comma list, without repeats', () => {
    expect(parse({ invoices: '3, 4,3' }).data?.invoices).toEqual([3, 4]);
    expect(parse({ invoices: 7 }).data?.invoices).toEqual([7]);
    expect(parse({ invoices: [5, 5, '6'] }).data?.invoices).toEqual([5, 6]);
    expect(errorsOf(parse({ invoices: [] }))).toEqual({ invoices: [NO_INVOICES_SELECTED] });
    expect(errorsOf(parse({ invoices: '' }))).toEqual({ invoices: [NO_INVOICES_SELECTED] });
    expect(parse({ invoices: [1, 'x'] }).success).toBe(false);
    expect(parse({ invoices: [0] }).success).toBe(false);
    expect(parse({ invoices: [-2] }).success).toBe(false);
    expect(parse({ invoices: Array.from({ length: 101 }, (_, i) => i + 1) }).success).toBe(false);
    // Ids are PostgreSQL integers: a larger one names no invoice.
    expect(parse({ invoices: [2_147_483_647] }).data?.invoices).toEqual([2_147_483_647]);
    for (const invoices of ['2147483648', [2_147_483_648], '9999999999'])
      expect(parse({ invoices }).success, String(invoices)).toBe(false);
    expect(parse({ discount_id: '2147483648' }).success).toBe(false);
  });

  it('reads discount_id as null when absent, empty or 0', () => {
    for (const discount_id of [undefined, null, '', 0, '0'])
      expect(parse({ discount_id }).data?.discount_id, String(discount_id)).toBeNull();
    expect(parse({ discount_id: '12' }).data?.discount_id).toBe(12);
    expect(errorsOf(parse({ discount_id: 'abc' }))).toEqual({ discount_id: ['The selected discount id is invalid.'] });
  });

  it('needs an idempotency key of 16 to 100 safe characters (card, bank, zero payment)', () => {
    const card = (idempotency_key: string) =>
      creditCardPaymentSchema.safeParse({ ...billTo, ...opaque, ...base, idempotency_key });
    expect(card('a'.repeat(16)).success).toBe(true);
    for (const idempotency_key of ['short', 'a'.repeat(101), `${'a'.repeat(20)} b`, `${'a'.repeat(20)}/`]) {
      expect(errorsOf(card(idempotency_key)), idempotency_key).toEqual({
        idempotency_key: ['The idempotency key field format is invalid.'],
      });
    }
  });

  it('wallet payments need no idempotency key: the PayPal session is the attempt', () => {
    expect(parse({ idempotency_key: undefined }).success).toBe(true);
    expect(parse({ idempotency_key: 'short' }).data?.idempotency_key).toBeUndefined();
  });

  it('wallet payments need the wallet ids', () => {
    expect(parse({}).data).toMatchObject({ tx_id: 'T1', token: 'EC-1', payer_id: 'P1', type: 'paypal' });
    expect(errorsOf(walletPaymentSchema.safeParse({ ...base }))).toEqual({
      tx_id: ['The transaction id field is required.'],
      token: ['The token field is required.'],
      payer_id: ['The payer id field is required.'],
    });
  });
});

describe('bankPaymentSchema (docs/requirements/entities.md Bank, without bank numbers)', () => {
  it('accepts opaque data, the name and the account type', () => {
    expect(bankPaymentSchema.parse({ nameOnAccount: 'Boosters', accountType: 'savings', ...opaque, ...base })).toEqual({
      nameOnAccount: 'Boosters',
      accountType: 'savings',
      ...opaque,
      value: 295,
      invoices: [1, 2],
      discount_id: null,
      idempotency_key: key,
      type: 'bank_account',
    });
  });

  it('refuses account and routing numbers', () => {
    expect(
      errorsOf(
        bankPaymentSchema.safeParse({
          nameOnAccount: 'Boosters',
          accountType: 'checking',
          ...opaque,
          ...base,
          accountNumber: '000123456789',
          accountNumber_confirmation: '000123456789',
          routingNumber: '021000021',
        }),
      ),
    ).toEqual({
      accountNumber: [NUMBERS_NOT_ACCEPTED],
      accountNumber_confirmation: [NUMBERS_NOT_ACCEPTED],
      routingNumber: [NUMBERS_NOT_ACCEPTED],
    });
  });

  it('requires the name, the account type and the opaque data', () => {
    expect(errorsOf(bankPaymentSchema.safeParse({ ...base, accountType: 'trust' }))).toEqual({
      nameOnAccount: ['The name on account field is required.'],
      accountType: ['The selected account type is invalid.'],
      dataDescriptor: ['The data descriptor field is required.'],
      dataValue: ['The data value field is required.'],
    });
  });
});

describe('zeroPaymentSchema (docs/requirements/entities.md Zero payment)', () => {
  const zero = { value: 0, invoices: [3], discount_id: 9, discount_total: '645.00', idempotency_key: key };

  it('accepts a settlement with a discount', () => {
    expect(zeroPaymentSchema.parse(zero)).toEqual({ ...zero, discount_total: 645, type: 'zero_payment' });
  });

  it('needs value 0, a discount and a discount total above 0', () => {
    expect(errorsOf(zeroPaymentSchema.safeParse({ ...zero, value: '0.01' }))).toEqual({
      value: ['The value field must be 0.'],
    });
    expect(errorsOf(zeroPaymentSchema.safeParse({ ...zero, discount_id: '' }))).toEqual({
      discount_id: ['The discount id field is required.'],
    });
    expect(errorsOf(zeroPaymentSchema.safeParse({ ...zero, discount_total: 0 }))).toEqual({
      discount_total: ['The discount total field must be greater than 0.'],
    });
    expect(errorsOf(zeroPaymentSchema.safeParse({ ...zero, type: 'credit_card' }))).toEqual({
      type: ['The selected type is invalid.'],
    });
  });
});
