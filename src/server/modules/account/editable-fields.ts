import { eq } from 'drizzle-orm';
import { accountSettingsContracts } from '../../../shared/contracts/account-settings.ts';
import { EDITABLE_ACCOUNT_FIELDS } from '../../../shared/forms/account-fields.ts';
import { checkFields } from '../../../shared/forms/rules.ts';
import { accounts } from '../../db/schema.ts';
import { notFound, ValidationError } from '../../errors.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { DynamicFormConfig } from '../../../shared/forms/field-definition.ts';
import type { Db } from '../../db/client.ts';

async function accountRow(db: Db, accountId: number | null) {
  if (!accountId) throw notFound('Your organization');
  const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!row) throw notFound('Your organization');
  return row;
}

/** The stored value of each editable field: account data first, then the account's own columns. */
function currentValues(row: typeof accounts.$inferSelect): Record<string, unknown> {
  return {
    account___name: row.name,
    account___street: row.street,
    account___city: row.city,
    account___state: row.state,
    account___zip: row.zip,
    account___fiscal_year_end: row.fiscalYearEndMonth ? String(row.fiscalYearEndMonth) : '',
    ...row.data,
  };
}

/**
 * GET /app/fields/editable (docs/requirements/calls.md): the dynamic form configuration of the signed-in holder's
 * organization data, with the current values.
 * @throws HttpError 404 when the user has no account
 */
export async function getEditableFields(db: Db, accountId: number | null): Promise<DynamicFormConfig> {
  const row = await accountRow(db, accountId);
  const values = currentValues(row);
  return {
    title: 'Organization data',
    fields: Object.fromEntries(EDITABLE_ACCOUNT_FIELDS.map((f) => [f.name, values[f.name] ?? ''])),
    schema: EDITABLE_ACCOUNT_FIELDS,
    has_required_fields: true,
    post_notification: true,
    is_clearing: false,
    is_disabled: false,
    is_cancelable: false,
    action: accountSettingsContracts.saveData.url,
    method: 'put',
  };
}

/**
 * Saves the organization data form: validated by the same definitions, stored in account data and
 * mirrored into the account's columns (name, address, fiscal year end).
 * Writes: accounts row, one audit_log row.
 * @throws ValidationError with field errors; HttpError 404
 */
export async function saveEditableFields(
  db: Db,
  accountId: number | null,
  actorUserId: number,
  submitted: Record<string, unknown>,
  ip: string,
) {
  const row = await accountRow(db, accountId);
  const { values, errors } = checkFields(EDITABLE_ACCOUNT_FIELDS, submitted, currentValues(row));
  if (Object.keys(errors).length) throw new ValidationError(errors);
  const text = (k: string) => String(values[k] ?? '');
  await db.transaction(async (tx) => {
    await tx
      .update(accounts)
      .set({
        name: text('account___name'),
        street: text('account___street'),
        city: text('account___city'),
        state: text('account___state'),
        zip: text('account___zip'),
        fiscalYearEndMonth: Number(values.account___fiscal_year_end) || null,
        searchText: [text('account___name'), text('account___city')].join(' ').toLowerCase(),
        data: { ...row.data, ...values },
        updatedAt: new Date(),
      })
      .where(eq(accounts.id, row.id));
    await recordAudit(tx, { actorUserId, accountId: row.id, action: 'account.data_saved', ip });
  });
  return { message: 'Your data was saved.', fields: values };
}
