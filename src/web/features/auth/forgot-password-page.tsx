import { Alert, Card } from '@mantine/core';
import { useState } from 'react';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { toastFailure } from '../../lib/feedback.tsx';
import type { signInContracts } from '../../../shared/contracts/sign-in.ts';

/** docs/requirements/product.md tool 11, first step: ask for a reset link by e-mail (same answer for any address). */
export default function ForgotPasswordPage() {
  const [sent, setSent] = useState<string | null>(null);
  const kit = useServerForm({
    route: routeAt<typeof signInContracts.forgotPassword>('POST', '/password/forgot'),
    defaultValues: { email: '' },
    // Loaded when the form is first used, so the page does not load zod first (docs/requirements/platform.md §6).
    loadSchema: () => import('../../../shared/schemas/public-forms.ts').then((m) => m.passwordForgotSchema),
    captchaAction: 'password_forgot',
    hasRequiredFields: false,
    onSuccess: (res) => setSent(res.message),
    onFailure: (f) => {
      // A 429 is shown by the form itself, with when to try again.
      if (!Object.keys(f.errors).length && f.status !== 429) toastFailure();
    },
  });
  return (
    <>
      <PageHeader
        title="Forgot your password?"
        lead="Give us the e-mail address you sign in with and we will send you a link to choose a new password."
      />
      <Card withBorder padding="xl" maw={460}>
        {sent && (
          <Alert color="green" mb="md" role="status">
            {sent}
          </Alert>
        )}
        <KitForm kit={kit} label="Send a reset link">
          <TextField name="email" label="E-mail" type="email" autoComplete="email" />
          <SubmitButton>Send reset link</SubmitButton>
        </KitForm>
      </Card>
    </>
  );
}
