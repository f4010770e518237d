import { z } from 'zod';
import { loginSchema, passwordForgotSchema, passwordResetSchema } from '../schemas/public-forms.ts';
import { validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** Where to go once signed in or out, and the new session's CSRF token. */
const sessionChangedSchema = z.object({ redirect: z.string(), csrfToken: z.string() });

/**
 * Sign in and out (docs/requirements/platform.md §5.1) and the password reset (docs/requirements/product.md
 * tool 11): anyone may call them.
 */
export const signInContracts = {
  login: defineContract({
    method: 'POST',
    url: '/login',
    access: 'visitor',
    summary: 'Sign in with e-mail and password',
    body: loginSchema,
    response: { 200: sessionChangedSchema, 422: validationFailedSchema },
  }),
  logout: defineContract({
    method: 'POST',
    url: '/logout',
    access: 'visitor',
    summary: 'Sign out',
    response: { 200: sessionChangedSchema },
  }),
  forgotPassword: defineContract({
    method: 'POST',
    url: '/password/forgot',
    access: 'visitor',
    summary: 'Ask for a password reset link (the same answer whether the address is known or not)',
    body: passwordForgotSchema,
    response: { 200: z.object({ message: z.string() }), 422: validationFailedSchema },
  }),
  resetPassword: defineContract({
    method: 'POST',
    url: '/password/reset',
    access: 'visitor',
    summary: 'Set a new password with the mailed link, then be signed in',
    body: passwordResetSchema,
    response: { 200: z.object({ url: z.string(), message: z.string() }), 422: validationFailedSchema },
  }),
};
