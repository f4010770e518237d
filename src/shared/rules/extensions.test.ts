import { describe, expect, it } from 'vitest';
import { filingExtensionSchema } from '../schemas/extensions.ts';
import { toFieldErrors } from '../validation.ts';
import {
  earliestExtendableDue,
  extendableForms,
  extendablePeriods,
  extensionRefusal,
  periodFirstDay,
  periodRefusal,
  shortPeriodOf,
} from './extensions.ts';
import { returnOwed } from './standing.ts';

describe('Form 8868 extensions (docs/irs-standing.md "Extensions")', () => {
  it('extend a Form 990 or 990-EZ (FILING_REQ_CD 01), a Form 990-PF and a Form 990-BL, never a 990-N', () => {
    expect(extendableForms(returnOwed('01', '0'))).toEqual(['990-EZ', '990']);
    expect(extendableForms(returnOwed('00', '1'))).toEqual(['990-PF']);
    // Form 8868's return code 02.
    expect(extendableForms(returnOwed('04', '0'))).toEqual(['990-BL']);
    expect(extensionRefusal(returnOwed('04', '0'))).toBeNull();
    expect(extensionRefusal(returnOwed('01', '0'))).toBeNull();
    expect(extensionRefusal(returnOwed('02', '0'))).toBe(
      'Form 8868 does not apply to the Form 990-N: its due date cannot be extended, and a late 990-N carries no penalty and still counts.',
    );
    expect(extensionRefusal(returnOwed('06', '0'))).toBe(
      'Form 8868 does not apply here: the organization owes no annual return (Not required to file (church)).',
    );
    expect(extensionRefusal(returnOwed('03', '0'))).toMatch(/group return includes it/);
    expect(extensionRefusal(null)).toMatch(/does not show which annual return/);
  });

  it('offer the periods that have ended and were due in the last three years, newest first', () => {
    // June year end on 28 November 2026: June 2026 has ended; June 2023's return was due 15 November 2023.
    expect(earliestExtendableDue('2026-11-28')).toBe('2023-11-28');
    expect(extendablePeriods(6, null, '2026-11-28')).toEqual(['2026-06', '2025-06', '2024-06']);
    // A December year end on 28 November 2026: December 2026 has not ended.
    expect(extendablePeriods(12, null, '2026-11-28')).toEqual(['2025-12', '2024-12', '2023-12']);
    // The latest short period (TAX_PERIOD 202503 with a June year end) is one of its periods too.
    expect(shortPeriodOf('202503', 6)).toBe('2025-03');
    expect(shortPeriodOf('202506', 6)).toBeNull();
    expect(extendablePeriods(6, '2025-03', '2026-11-28')).toEqual(['2026-06', '2025-06', '2025-03', '2024-06']);
  });

  it('refuse a period of another month, one not ended, and one due more than three years ago, saying why', () => {
    expect(periodRefusal('2025-12', 6, null, '2026-11-28')).toBe(
      "The return period must end in the organization's fiscal year end month, June.",
    );
    expect(periodRefusal('2027-06', 6, null, '2026-11-28')).toBe(
      'The period ending June 2027 has not ended yet: record its extension once it has.',
    );
    expect(periodRefusal('2023-06', 6, null, '2026-11-28')).toBe(
      'The return for the period ending June 2023 was due November 15, 2023, more than 3 years ago: extensions are recorded for returns due in the last 3 years.',
    );
    expect(periodRefusal('2024-06', 6, null, '2026-11-28')).toBeNull();
    expect(periodFirstDay('2025-06')).toBe('2024-07-01');
    expect(periodFirstDay('2025-12')).toBe('2025-01-01');
  });

  it('the payload: filed by the original due date, the extended due date Form 8868 gives, each message on its field', () => {
    const ok = { period_end: '2025-06', return_form: '990-EZ', filed_on: '2025-11-10', extended_due: '2026-05-15' };
    expect(filingExtensionSchema.safeParse(ok).success).toBe(true);
    // Each field's first message: the one the form and the 422 show first.
    const errors = (body: Record<string, unknown>) => {
      const r = filingExtensionSchema.safeParse(body);
      return r.success
        ? {}
        : Object.fromEntries(Object.entries(toFieldErrors(r.error)).map(([k, v]) => [k, v.slice(0, 1)]));
    };
    // 15 November 2025 was a Saturday: the return was due Monday 17 November.
    expect(errors({ ...ok, filed_on: '2025-11-17' })).toEqual({});
    expect(errors({ ...ok, filed_on: '2025-11-18' })).toEqual({
      filed_on: [
        "Form 8868 must be filed by the return's due date: November 17, 2025 for the period ending June 2025. One filed later does not extend it.",
      ],
    });
    expect(errors({ ...ok, filed_on: '2024-06-30' }).filed_on).toEqual([
      'The Form 8868 filing date must be in or after the tax year it extends: on or after July 1, 2024.',
    ]);
    expect(errors({ ...ok, extended_due: '2026-05-17' })).toEqual({
      extended_due: [
        'The extended due date of the return for the period ending June 2025 is May 15, 2026: Form 8868 gives six months from the original due date.',
      ],
    });
    expect(errors({})).toEqual({
      period_end: ['The return period field is required.'],
      return_form: ['The return extended field is required.'],
      filed_on: ['The Form 8868 filing date field is required.'],
      extended_due: ['The extended due date field is required.'],
    });
    expect(errors({ ...ok, period_end: '2025-13', return_form: '990-N', filed_on: '2025-02-30' })).toEqual({
      period_end: ['The return period field format is invalid.'],
      return_form: ['The selected return extended is invalid.'],
      filed_on: ['The Form 8868 filing date field must be a valid date.'],
    });
  });
});
