// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SchemaFields } from './schema-field.tsx';
import { initialValues, payloadOf, useSchemaValues } from './schema-values.ts';
import type { FieldDefinition } from '../../../shared/forms/field-definition.ts';

afterEach(cleanup);

/** A label's words, with or without the required star after them. */
const labelled = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\*?$`);

/** Every field type of docs/requirements/entities.md, with the display options a definition can carry. */
const DEFS: FieldDefinition[] = [
  { name: 'heading_1', field_type: 'heading', label: 'About your group' },
  {
    name: 'account___name',
    field_type: 'text',
    label: 'Organization name',
    rules: 'required',
    placeholder: 'Lincoln Boosters',
    sub_label: 'As on your bank account',
    is_accented: true,
  },
  {
    name: 'account___mission',
    field_type: 'textarea',
    label: 'Mission',
    rows: 5,
    instructions: 'One or two sentences.',
  },
  { name: 'account___founded', field_type: 'date', label: 'Date founded' },
  { name: 'account___has_ein', field_type: 'checkbox', label: 'We already have an EIN' },
  {
    name: 'account___ein',
    field_type: 'text',
    label: 'EIN',
    rules: 'required|ein',
    is_conditional: 'account___has_ein',
  },
  {
    name: 'account___kind',
    field_type: 'radio',
    label: 'Kind of group',
    options: [
      { value: 'booster', label: 'Booster club' },
      { value: 'pto', label: 'PTO' },
    ],
  },
  { name: 'account___state', field_type: 'state', label: 'State', rules: 'required' },
  { name: 'account___national_organization', field_type: 'greek', label: 'National organization' },
  {
    name: 'account___fiscal_year_end',
    field_type: 'select',
    label: 'Fiscal year end',
    options: { '6': 'June', '12': 'December' },
  },
  { name: 'divider_1', field_type: 'divider' },
  { name: 'warning_1', field_type: 'warning', label: 'Check your EIN', description: 'It must match the IRS letter.' },
  { name: 'account___source', field_type: 'hidden', value: 'wizard' },
  { name: 'link_1', field_type: 'link', link: { href: '/privacy', html: 'Read our privacy policy' } },
  { name: 'account___portal_password', field_type: 'password', label: 'State portal password' },
  { name: 'account___letter', field_type: 'dropbox', label: 'IRS determination letter', action: '/uploads/letter' },
  {
    name: 'treasurer',
    field_type: 'text',
    label: 'Treasurer',
    side_label: 'President: |account___name',
    is_disabled: true,
    value: 'Kim',
  },
];

function Harness({
  defs,
  hasRequiredFields = true,
  onState,
}: {
  defs: FieldDefinition[];
  hasRequiredFields?: boolean;
  onState?: (s: ReturnType<typeof useSchemaValues>) => void;
}) {
  const state = useSchemaValues(() => initialValues(defs, {}));
  onState?.(state);
  return (
    <MantineProvider>
      <SchemaFields defs={defs} state={state} hasRequiredFields={hasRequiredFields} />
    </MantineProvider>
  );
}

describe('SchemaFields renders every field type from its definition', () => {
  it('with linksInNewTab (the wizard), a help link opens in a new tab and says so; without, it stays in the tab', () => {
    const link = DEFS.filter((d) => d.field_type === 'link');
    function NewTab() {
      const state = useSchemaValues(() => ({}));
      return (
        <MantineProvider>
          <SchemaFields defs={link} state={state} linksInNewTab />
        </MantineProvider>
      );
    }
    const { unmount } = render(<NewTab />);
    const a = screen.getByRole('link', { name: 'Read our privacy policy (opens in a new tab)' });
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toContain('noopener');
    unmount();
    render(<Harness defs={link} />);
    expect(screen.getByRole('link', { name: 'Read our privacy policy' }).getAttribute('target')).toBeNull();
  });

  it('gives each value field a visible label tied to its input', () => {
    render(<Harness defs={DEFS} />);
    for (const label of [
      'Organization name',
      'Mission',
      'Date founded',
      'State',
      'Fiscal year end',
      'State portal password',
      'Treasurer',
    ]) {
      expect(screen.getByLabelText(labelled(label)), label).toBeTruthy();
    }
    // The Greek select: a searchable combobox whose list of names carries the same label.
    expect(screen.getByRole('combobox', { name: labelled('National organization') })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'We already have an EIN' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: 'Booster club' })).toBeTruthy();
    expect(screen.getByText('About your group')).toBeTruthy();
    expect(screen.getByText('It must match the IRS letter.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Read our privacy policy' }).getAttribute('href')).toBe('/privacy');
    expect(screen.getByText('As on your bank account')).toBeTruthy();
    expect(screen.getByText('One or two sentences.')).toBeTruthy();
    expect(screen.getByText(/IRS determination letter/)).toBeTruthy();
    expect(screen.getByLabelText(labelled('Mission')).getAttribute('rows')).toBe('5');
    expect((screen.getByLabelText(/^Treasurer/) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByLabelText(labelled('State')) as HTMLSelectElement).options.length).toBeGreaterThanOrEqual(52);
  });

  it('shows a conditional field only while its field is truthy, and sends no value for it while hidden', () => {
    let state!: ReturnType<typeof useSchemaValues>;
    render(<Harness defs={DEFS} onState={(s) => (state = s)} />);
    expect(screen.queryByLabelText(/^EIN/)).toBeNull();
    expect('account___ein' in payloadOf(DEFS, state.values)).toBe(false);
    act(() => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'We already have an EIN' }));
    });
    expect(screen.getByLabelText(/^EIN/)).toBeTruthy();
    expect(payloadOf(DEFS, state.values).account___has_ein).toBe(1);
  });

  it("shows a side label's 'text|field' with the other field's current value", () => {
    render(<Harness defs={DEFS} />);
    act(() => {
      fireEvent.change(screen.getByLabelText(/^Organization name/), { target: { value: 'Soldotna Boosters' } });
    });
    expect(screen.getByText(/President: Soldotna Boosters/)).toBeTruthy();
  });

  it('stars required fields, unless the form hides the markers', () => {
    const { container, unmount } = render(<Harness defs={DEFS} />);
    expect(container.querySelectorAll('[class*="required"]').length).toBeGreaterThan(0);
    unmount();
    const hidden = render(<Harness defs={DEFS} hasRequiredFields={false} />);
    expect(hidden.container.querySelectorAll('.mantine-InputWrapper-required').length).toBe(0);
  });
});
