import { MONTHS } from '../lists/months.ts';
import type { FieldDefinition } from './field-definition.ts';

/**
 * The organization data an account holder edits in the account area (docs/requirements/product.md tool 2 "dynamic forms
 * ... for account data"), served by GET /app/fields/editable. Names match the application
 * wizard's, so the answers given when joining appear here.
 */
export const EDITABLE_ACCOUNT_FIELDS: FieldDefinition[] = [
  { name: 'heading_org', field_type: 'heading', label: 'Organization' },
  { name: 'account___name', label: 'Organization name', field_type: 'text', rules: 'required|max:200' },
  { name: 'account___street', label: 'Street address', field_type: 'text', rules: 'required|max:200' },
  { name: 'account___city', label: 'City', field_type: 'text', rules: 'required|max:100' },
  { name: 'account___state', label: 'State', field_type: 'state', rules: 'required' },
  { name: 'account___zip', label: 'ZIP code', field_type: 'text', rules: 'required|max:10' },
  {
    name: 'account___fiscal_year_end',
    label: 'Last month of your fiscal year',
    field_type: 'select',
    rules: 'required',
    options: Object.fromEntries(Object.entries(MONTHS).map(([k, v]) => [k, v])),
    instructions: 'It must match the month the IRS has on file for you.',
  },
  { name: 'divider_officers', field_type: 'divider' },
  { name: 'heading_officers', field_type: 'heading', label: 'Officers' },
  {
    name: 'contact___president_first_name',
    label: 'President first name',
    field_type: 'text',
    rules: 'required|max:100',
  },
  {
    name: 'contact___president_last_name',
    label: 'President last name',
    field_type: 'text',
    rules: 'required|max:100',
  },
  { name: 'contact___president_email', label: 'President e-mail', field_type: 'text', rules: 'required|email|max:255' },
  { name: 'contact___treasurer_first_name', label: 'Treasurer first name', field_type: 'text', rules: 'max:100' },
  { name: 'contact___treasurer_last_name', label: 'Treasurer last name', field_type: 'text', rules: 'max:100' },
  { name: 'contact___treasurer_email', label: 'Treasurer e-mail', field_type: 'text', rules: 'email|max:255' },
];
