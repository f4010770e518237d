import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../errors.ts';
import { wizardBylawAnswers } from './bylaws.ts';

/** A booster club's answers on the wizard's bylaws step, as Next saves them (months 0-based). */
const STEP = {
  account___name: 'Soldotna High School Track Boosters',
  bylaw___name: 'Soldotna High School Track Boosters',
  bylaw___purpose: 'To support the student athletes of the Soldotna High School track program.',
  bylaw___facility: 'Soldotna High School',
  bylaw___meeting_attendee_minimum: '10%',
  bylaw___meeting_request_minimum: '1/10',
  bylaw___nomination_month: '3',
  bylaw___annual_meeting_month: '4',
  bylaw___fiscal_year_end: '5',
  bylaw___is_highlighted: 1,
};

/** The wizard's bylaws step read as the generator's answers (docs/wizard.md "The bylaws step"). */
describe('wizardBylawAnswers', () => {
  it("maps the bylaw___ answers to the generator's standard variant", () => {
    expect(wizardBylawAnswers(STEP)).toEqual({
      version: 'standard',
      name: 'Soldotna High School Track Boosters',
      purpose: 'To support the student athletes of the Soldotna High School track program.',
      facility: 'Soldotna High School',
      meeting_attendee_minimum: '10%',
      meeting_request_minimum: '1/10',
      nomination_month: 3,
      annual_meeting_month: 4,
      fiscal_year_end: 5,
      is_school: 0,
      is_highlighted: 1,
    });
  });

  it('answers without a bylaws step give none', () => {
    expect(wizardBylawAnswers({ account___name: 'Soldotna Boosters' })).toBeNull();
  });

  it("an answer the generator refuses is a 422 on the wizard's field name", () => {
    let error: unknown;
    try {
      wizardBylawAnswers({ ...STEP, bylaw___fiscal_year_end: '12', bylaw___meeting_request_minimum: '1/20' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(Object.keys((error as ValidationError).errors).sort()).toEqual([
      'bylaw___fiscal_year_end',
      'bylaw___meeting_request_minimum',
    ]);
    expect((error as ValidationError).errors.bylaw___fiscal_year_end).toEqual([
      'The selected fiscal year end is invalid.',
    ]);
  });
});
