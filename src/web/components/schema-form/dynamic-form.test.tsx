// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { accountSettingsContracts } from '../../../shared/contracts/account-settings.ts';
import { DynamicForm } from './dynamic-form.tsx';
import type { DynamicFormConfig } from '../../../shared/forms/field-definition.ts';

afterEach(cleanup);

const CONFIG: DynamicFormConfig = {
  title: 'Organization data',
  alert: 'Changes reach the IRS only with your next filing.',
  fields: { account___name: 'Lincoln Boosters' },
  schema: [{ name: 'account___name', field_type: 'text', label: 'Organization name', rules: 'required' }],
  action: '/app/account/data',
  is_cancelable: true,
};

const show = (config: DynamicFormConfig) =>
  render(
    <MantineProvider>
      <MemoryRouter>
        <DynamicForm config={config} route={accountSettingsContracts.saveData} />
      </MemoryRouter>
    </MantineProvider>,
  );

describe('DynamicForm (docs/requirements/entities.md "Dynamic form configuration")', () => {
  it('shows the title, the alert, the fields with their values, Save and Cancel', () => {
    show(CONFIG);
    expect(screen.getByRole('heading', { name: 'Organization data' })).toBeTruthy();
    expect(screen.getByText('Changes reach the IRS only with your next filing.')).toBeTruthy();
    expect((screen.getByLabelText(/^Organization name/) as HTMLInputElement).value).toBe('Lincoln Boosters');
    expect(screen.getByRole('button', { name: 'Save' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('a disabled form shows a disabled Locked button instead of Save, and no Cancel unless cancelable', () => {
    show({ ...CONFIG, is_disabled: true, is_cancelable: false });
    const locked = screen.getByRole('button', { name: 'Locked' }) as HTMLButtonElement;
    expect(locked.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });
});
