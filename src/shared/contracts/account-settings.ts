import { z } from 'zod';
import { dynamicFormConfigSchema } from '../forms/field-definition.ts';
import {
  accountUserListSchema,
  accountUserRowSchema,
  accountUserStoreSchema,
  accountUserUpdateSchema,
  invitationNotMeSchema,
} from '../schemas/account-users.ts';
import { renewalPayloadSchema } from '../schemas/renewal.ts';
import { actingAccountField, fileAnswer, recordIdParams, validationFailedSchema } from './common.ts';
import { defineContract } from './contract.ts';

/** docs/requirements/entities.md "Profile account": id and the header image's address ('' when none). */
const profileAccountSchema = z.object({ id: z.number().int(), public_profile_image: z.string() });

/** Staff name the account in the body of a change; the route reads nothing else from it. */
const actingAccountBody = z.object({ account_id: actingAccountField });

/**
 * The account holder's settings (docs/requirements/calls.md): the organization data form, the
 * public profile's header image (docs/requirements/product.md tool 12) and the renewal.
 */
export const accountSettingsContracts = {
  editableFields: defineContract({
    method: 'GET',
    url: '/app/fields/editable',
    access: 'signed-in',
    scoped: true,
    summary: "The organization data form of the user's own account, with the current values",
    response: { 200: dynamicFormConfigSchema },
  }),
  saveData: defineContract({
    method: 'PUT',
    url: '/app/account/data',
    access: 'signed-in',
    scoped: true,
    summary: "Save the organization data form of the user's own account",
    // The fields and their rules are the form's definitions (checkFields), not one fixed shape.
    body: z.looseObject({}),
    response: {
      200: z.object({ message: z.string(), fields: z.record(z.string(), z.unknown()) }),
      422: validationFailedSchema,
    },
  }),
  setImage: defineContract({
    method: 'POST',
    url: '/app/account/image/:id',
    access: 'signed-in',
    scoped: true,
    summary: "Upload the public profile's header image (multipart: one jpeg, png or gif)",
    params: recordIdParams,
    response: { 200: profileAccountSchema, 422: validationFailedSchema },
  }),
  clearImage: defineContract({
    method: 'POST',
    url: '/app/account/empty-image/:id',
    access: 'signed-in',
    scoped: true,
    summary: "Remove the public profile's header image",
    params: recordIdParams,
    response: { 200: profileAccountSchema },
  }),
  image: defineContract({
    method: 'GET',
    url: '/app/account/image/:id/:fileId',
    access: 'visitor',
    summary: "An account's public profile header image",
    params: z.object({ id: z.string(), fileId: z.string() }),
    response: { 200: fileAnswer('The header image') },
    produces: ['image/jpeg', 'image/png', 'image/gif'],
  }),
  renew: defineContract({
    method: 'POST',
    url: '/app/account/renewal',
    access: 'account-user',
    scoped: true,
    summary: 'Renew the membership: bill the renewal with the chosen options and totals',
    body: renewalPayloadSchema,
    response: {
      200: z.object({ redirect: z.string(), invoice_id: z.number().int() }),
      422: validationFailedSchema,
    },
  }),
};

/** A user added or saved, with the text the page shows. */
const userSavedSchema = z.object({ message: z.string(), user: accountUserRowSchema });

/**
 * Account users (docs/requirements/calls.md /app/account/users/*, docs/roles.md): any user of the
 * account reads the list and edits their own record; the primary user and staff manage the others.
 */
export const accountUserContracts = {
  list: defineContract({
    method: 'GET',
    url: '/app/account/users/json',
    access: 'account-user',
    scoped: true,
    summary: "The account's users and what the viewer may do with them",
    querystring: actingAccountBody,
    response: { 200: accountUserListSchema },
  }),
  store: defineContract({
    method: 'POST',
    url: '/app/account/users/store',
    access: 'primary-user',
    scoped: true,
    summary: 'Add a user to the account; they are mailed a link to choose their password',
    body: accountUserStoreSchema.extend({ account_id: actingAccountField }),
    response: { 201: userSavedSchema, 422: validationFailedSchema },
  }),
  update: defineContract({
    method: 'PUT',
    url: '/app/account/users/update/:id',
    access: 'account-user',
    scoped: true,
    summary: "Save a user of the account (their own record, or anyone's for the primary user)",
    params: recordIdParams,
    body: accountUserUpdateSchema.safeExtend({ account_id: actingAccountField }),
    response: { 200: userSavedSchema, 422: validationFailedSchema },
  }),
  invitation: defineContract({
    method: 'POST',
    url: '/app/account/users/:id/invitation',
    access: 'primary-user',
    scoped: true,
    summary: 'Mail a new set-password link to a user who has not chosen a password yet',
    params: recordIdParams,
    body: actingAccountBody,
    response: { 200: z.object({ message: z.string(), expires_at: z.string() }), 422: validationFailedSchema },
  }),
  notMe: defineContract({
    method: 'POST',
    url: '/invitation/not-me',
    access: 'visitor',
    summary:
      '"This was not me": end a pending invitation with the token of its mailed links (the same answer whatever the token)',
    body: invitationNotMeSchema,
    response: { 200: z.object({ message: z.string() }), 422: validationFailedSchema },
  }),
  remove: defineContract({
    method: 'DELETE',
    url: '/app/account/users/delete/:id',
    access: 'primary-user',
    scoped: true,
    summary: 'Remove a user from the account',
    params: recordIdParams,
    body: actingAccountBody,
    response: { 200: z.object({ message: z.string() }), 422: validationFailedSchema },
  }),
};
