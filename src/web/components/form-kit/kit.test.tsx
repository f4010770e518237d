// @vitest-environment happy-dom
import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inquiryContracts } from '../../../shared/contracts/public-forms.ts';
import { KitForm, SubmitButton, TextField } from './kit.tsx';
import { useServerForm } from './use-server-form.ts';

afterEach(cleanup);

const schema = z.object({ email: z.string().min(1, 'The email field is required.') });

function Form({ loadSchema }: { loadSchema: () => Promise<z.ZodType> }) {
  const kit = useServerForm({ route: inquiryContracts.contact, defaultValues: { email: '' }, loadSchema });
  return (
    <KitForm kit={kit} label="Contact us">
      <TextField name="email" label="E-mail" required />
      <SubmitButton>Send message</SubmitButton>
    </KitForm>
  );
}

/** The form once it is interactive: fields and button enabled after the first render. */
async function showForm(loadSchema: () => Promise<z.ZodType>) {
  render(
    <MantineProvider>
      <Form loadSchema={loadSchema} />
    </MantineProvider>,
  );
  const button = screen.getByRole('button', { name: 'Send message' }) as HTMLButtonElement;
  await waitFor(() => expect(button.disabled).toBe(false));
  return button;
}

describe('a form whose schema is loaded when first used (docs/requirements/platform.md §6)', () => {
  it('does not load the schema until the form is focused', async () => {
    let loads = 0;
    await showForm(async () => {
      loads += 1;
      return schema;
    });
    expect(loads).toBe(0);
    fireEvent.focus(screen.getByLabelText(/^E-mail/));
    expect(loads).toBe(1);
  });

  it('checks the values with the loaded schema before sending, with the schema’s message', async () => {
    const button = await showForm(async () => schema);
    fireEvent.click(button);
    await screen.findByText('The email field is required.');
    expect(button.disabled).toBe(true);
  });
});
