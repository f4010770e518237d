import { useServerForm } from '../../components/form-kit/use-server-form.ts';
import { pushEvent } from '../../lib/analytics.ts';
import { successDialog } from '../../lib/feedback.tsx';
import type { RouteAddress, RouteContract } from '../../../shared/contracts/contract.ts';
import type { FieldValues } from 'react-hook-form';
import type { z } from 'zod';

const INQUIRY_RECEIVED = "Your message has been received. We'll get back with you shortly.";

/**
 * A contact-type form (docs/requirements/errors.md "Public forms"): posts to its own page path (`route`, src/shared/contracts/public-forms.ts), shows field errors and
 * otherwise swallows failures; success shows the 'Success!' dialog and pushes an analytics event.
 * `loadSchema` loads the form's shared schema when the form is first used.
 */
export function useInquiryForm<V extends FieldValues, C extends RouteContract>(
  route: RouteAddress<C>,
  formName: string,
  defaultValues: V,
  loadSchema: () => Promise<z.ZodType>,
) {
  return useServerForm<V, C>({
    route,
    defaultValues,
    loadSchema,
    captchaAction: formName,
    onSuccess: () => {
      pushEvent('form_submitted', { form: formName });
      successDialog(INQUIRY_RECEIVED);
    },
  });
}
