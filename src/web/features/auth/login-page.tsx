import { Anchor, Card, Group } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { routeAt } from '../../../shared/contracts/contract.ts';
import { KitForm, SubmitButton, TextField } from '../../components/form-kit/kit.tsx';
import { PasswordField } from '../../components/form-kit/password-field.tsx';
import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { PageHeader } from '../../components/page-header.tsx';
import { setCsrfToken } from '../../lib/http.ts';
import { sameSitePath } from '../../lib/same-site-path.ts';
import type { signInContracts } from '../../../shared/contracts/sign-in.ts';

/** Sign in for account holders and staff. */
export default function LoginPage() {
  const [params] = useSearchParams();
  const kit = useServerForm({
    route: routeAt<typeof signInContracts.login>('POST', '/login'),
    defaultValues: { email: '', password: '' },
    // Loaded when the form is first used, so the page does not load zod first (docs/requirements/platform.md §6).
    loadSchema: () => import('../../../shared/schemas/public-forms.ts').then((m) => m.loginSchema),
    hasRequiredFields: false,
    onSuccess: (res) => {
      setCsrfToken(res.csrfToken);
      // `next` comes from the address bar: a crafted link must not lead off the site.
      window.location.assign(sameSitePath(params.get('next'), window.location.origin) ?? res.redirect);
    },
  });
  return (
    <>
      <PageHeader title="Sign in" lead="Account holders and staff sign in here." />
      <Card withBorder padding="xl" maw={460}>
        <KitForm kit={kit} label="Sign in">
          <TextField name="email" label="E-mail" type="email" autoComplete="username" />
          <PasswordField name="password" label="Password" autoComplete="current-password" />
          <SubmitButton
            extra={
              <Group ml="auto">
                <Anchor component={Link} to="/password/forgot" size="sm">
                  Forgot your password?
                </Anchor>
              </Group>
            }
          >
            Sign in
          </SubmitButton>
        </KitForm>
      </Card>
    </>
  );
}
