import { describe, expect, it } from 'vitest';
import {
  isFieldShown,
  isNumericallyTruthy,
  optionPairs,
  resolveSideLabel,
  wizardProgress,
} from './field-definition.ts';

describe('conditional display (docs/requirements/entities.md is_conditional)', () => {
  it('uses numeric truthiness', () => {
    for (const v of [1, '1', '2', true, '0.5']) expect(isNumericallyTruthy(v), String(v)).toBe(true);
    for (const v of [0, '0', '', null, undefined, false, 'yes', 'abc'])
      expect(isNumericallyTruthy(v), String(v)).toBe(false);
  });
  it('shows a field only while its controlling field is truthy', () => {
    expect(isFieldShown({ is_conditional: 'has_ein' }, { has_ein: 1 })).toBe(true);
    expect(isFieldShown({ is_conditional: 'has_ein' }, { has_ein: '0' })).toBe(false);
    expect(isFieldShown({}, {})).toBe(true);
  });
  it("'name=a,b' shows a field only while that field holds one of the values", () => {
    const pending = { is_conditional: 'account___has_501c=2' };
    expect(isFieldShown(pending, { account___has_501c: '2' })).toBe(true);
    expect(isFieldShown(pending, { account___has_501c: 2 })).toBe(true);
    for (const v of ['1', '0', '', undefined, ['2']])
      expect(isFieldShown(pending, { account___has_501c: v }), String(v)).toBe(false);
    expect(isFieldShown({ is_conditional: 'kind=a, b' }, { kind: 'b' })).toBe(true);
  });
});

describe('side labels', () => {
  it("shows 'text|field' as the text and the field's value", () => {
    expect(resolveSideLabel('Due: |renewal_due', { renewal_due: '06/30/2027' })).toBe('Due: 06/30/2027');
    expect(resolveSideLabel('Due: |renewal_due', {})).toBe('Due: ');
    expect(resolveSideLabel('per year', {})).toBe('per year');
    expect(resolveSideLabel(undefined, {})).toBe('');
  });
});

describe('options', () => {
  it('reads radio pairs and select maps in order', () => {
    expect(optionPairs({ options: [{ value: 'a', label: 'A' }] })).toEqual([{ value: 'a', label: 'A' }]);
    expect(optionPairs({ options: { '1': 'January', '2': 'February' } })).toEqual([
      { value: '1', label: 'January' },
      { value: '2', label: 'February' },
    ]);
    expect(optionPairs({})).toEqual([]);
  });
});

describe('wizard progress (docs/requirements/behaviour.md)', () => {
  it('is (page-1)/(pages-1) as a percent', () => {
    expect(wizardProgress(1, 5)).toBe(0);
    expect(wizardProgress(3, 5)).toBe(50);
    expect(wizardProgress(5, 5)).toBe(100);
    expect(wizardProgress(2, 4)).toBe(33);
    expect(wizardProgress(1, 1)).toBe(100);
    expect(wizardProgress(9, 5)).toBe(100);
  });
});
