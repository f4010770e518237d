import { Card } from '@mantine/core';
import { useParams, useSearchParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { PasswordField } from '../../components/form-kit/password-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { toastFailure } from '../../lib/feedback.tsx';
import type { signInContracts } from '../../../shared/contracts/sign-in.ts';

interface ResetValues {
  _token: string;
  email: string;
  password: string;
  password_confirmation: string;
}

/**
 * docs/requirements/product.md tool 11: new password and confirmation with the strength meter; on success the browser
 * goes to the URL the server returns. Failure: toast 'That didn't work.' (docs/requirements/errors.md). With
 * `?invitation=1` (the link of an invitation, docs/roles.md "Invitations") the same form is worded
 * for choosing a first password.
 */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const [params] = useSearchParams();
  const invitation = params.get('invitation') === '1';
  const title = invitation ? 'Set your password' : 'Choose a new password';
  const kit = useServerForm<ResetValues, typeof signInContracts.resetPassword>({
    route: routeAt<typeof signInContracts.resetPassword>('POST', '/password/reset'),
    defaultValues: { _token: token, email: params.get('email') ?? '', password: '', password_confirmation: '' },
    toPayload: ({ _token, ...rest }) => ({ token: _token, ...rest }),
    captchaAction: 'password_reset',
    onSuccess: (res) => window.location.assign(res.url),
    // A 429 is shown by the form itself, with when to try again.
    onFailure: (f) => {
      if (f.status !== 429) toastFailure();
    },
  });
  return (
    <>
      <PageHeader
        title={title}
        lead={`${invitation ? 'Welcome! Choose the password you will sign in with. ' : ''}Use at least 8 characters with letters and numbers. Mixed case and symbols make it stronger.`}
      />
      <Card withBorder padding="xl" maw={480}>
        <KitForm kit={kit} label={title}>
          <TextField name="email" label="E-mail" type="email" required autoComplete="username" />
          <PasswordField name="password" label="Password" required withMeter />
          <PasswordField name="password_confirmation" label="Confirm password" required />
          <SubmitButton>{invitation ? 'Set password and sign in' : 'Reset password'}</SubmitButton>
        </KitForm>
      </Card>
    </>
  );
}
