/**
 * The audit log in words (docs/audit.md): what an entry's dotted action means, and its details as
 * plain lines — "Price: $695.00 → $645.00" for a change, "Discount code: RENEW25" for a fact —
 * instead of raw JSON. Used by the staff audit page and its CSV export alike.
 */

import { formatCurrency } from './formats.ts';

/** Actions whose words are not simply their parts read aloud. */
const ACTION_WORDS: Record<string, string> = {
  'auth.login': 'Signed in',
  'auth.password_reset': 'Reset their password',
  'application.started': 'Started an application',
  'application.completed': 'Submitted an application',
  'account.data_saved': 'Saved the organization data',
  'account.settings_updated': 'Changed the account settings',
  'account.profile_image.set': 'Set the profile image',
  'account.profile_image.cleared': 'Removed the profile image',
  'account.determination_letter.uploaded': 'Uploaded the IRS determination letter',
  'account.determination_letter.accepted': 'Accepted the IRS determination letter',
  'account.determination_letter.returned': 'Sent the IRS determination letter back',
  'account.applicant_linked': 'Linked an applicant to the account as its primary user',
  'account_users.created': 'Added a user',
  'account_users.updated': 'Changed a user',
  'account_users.deleted': 'Removed a user',
  'account_users.refused': 'Was refused a change to the users',
  'account_users.invitation_ended': 'A pending invitation was ended by its recipient',
  'discount.created': 'Created a discount code',
  'discount.updated': 'Changed a discount code',
  'discount.reserved': 'Entered a discount code',
  'level.updated': 'Changed a level’s prices',
  'state_requirement.updated': 'Changed a state requirement',
  'banner.created': 'Created a banner',
  'banner.updated': 'Changed a banner',
  'banner.deleted': 'Deleted a banner',
  'inquiry.handled': 'Marked an inquiry handled',
  'inquiry.reopened': 'Reopened an inquiry',
  'staff.created': 'Created a staff user',
  'staff.set_password_link': 'Sent a staff user a set-password link',
  'compliance.filing_recorded': 'Recorded a filing',
  'filing_extension.recorded': 'Recorded a Form 8868 extension',
  'filing_extension.removed': 'Removed a Form 8868 extension',
  'reinstatement_item.checked': 'Ticked an item of the reinstatement checklist',
  'reinstatement_item.unchecked': 'Unticked an item of the reinstatement checklist',
  'reinstatement.ordered': 'Ordered the reinstatement application',
  'job.run': 'Ran a job',
  'payment_alert.reviewed': 'Marked a possible card testing alert reviewed',
  'limit.reached': 'Was refused past a limit (too many attempts)',
  'uploads.stored': 'Uploaded files',
  'accounts.imported': 'Imported accounts',
};

/** Words for detail keys whose spelled-out name reads badly. */
const FIELD_WORDS: Record<string, string> = {
  ein: 'EIN',
  gen: 'GEN',
  url: 'Address',
  ip: 'IP address',
  is_primary: 'Primary user',
  isPrimary: 'Primary user',
  is_suspended_from_basic_renewal: 'Suspended from basic renewal',
  group_id: 'Group',
  groupId: 'Group',
  onBehalf: 'On behalf of the account',
  invitedEmail: 'Invited address',
  // A level's prices (modules/admin/levels.ts): the "discount" prices are the early-bird ones.
  priceCents: 'Price',
  priceDiscountCents: 'Early-bird price',
  upgradeCents: 'Upgrade price',
  upgradeDiscountCents: 'Early-bird upgrade price',
  incPackageCents: 'Incorporation package price',
  incPackageDiscountCents: 'Early-bird incorporation package price',
  upgradeToId: 'Upgrades to level',
  // A limit's refusal (modules/limits/take-limit.ts): which limit, counted per what, until when.
  rule: 'Limit',
  per: 'Counted per',
  max: 'Allowed',
  until: 'Until',
  // A Form 8868 extension (modules/extensions/).
  extendedDue: 'Extended due date',
  // The reinstatement checklist (modules/reinstatement/).
  itemKey: 'Checklist item',
};

/** A key as words: 'early_bird_price_cents' → 'Early bird price', 'discountId' → 'Discount'. */
export function fieldWords(key: string): string {
  if (FIELD_WORDS[key]) return FIELD_WORDS[key];
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_.]+/g, ' ')
    .replace(/\b(cents|id)$/i, '')
    .trim()
    .toLowerCase()
    .replace(/\bein\b/g, 'EIN')
    .replace(/\bgen\b/g, 'GEN')
    .replace(/\bpaypal\b/g, 'PayPal');
  return words ? words[0].toUpperCase() + words.slice(1) : key;
}

/**
 * What an action means, e.g. 'discount.created' → 'Created a discount code'; an action with no
 * words of its own is read part by part ('work_item.note_added' → 'Work item: note added').
 */
export function actionWords(action: string): string {
  if (ACTION_WORDS[action]) return ACTION_WORDS[action];
  const parts = action.split('.').map((p) => p.replace(/_/g, ' '));
  const head = parts[0] ? parts[0][0].toUpperCase() + parts[0].slice(1) : action;
  return parts.length > 1 ? `${head}: ${parts.slice(1).join(' ')}` : head;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * One value as a person reads it: dollars for a `…cents` key (integer cents), "#4" for a record's
 * id, yes/no, "empty" for nothing, dates as written, lists joined, anything else as short JSON.
 */
export function valueWords(key: string, value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number' && /cents$/i.test(key)) return formatCurrency(value);
  // A record's id: "Discount: #4", not an amount of something.
  if (typeof value === 'number' && /(Id|_id)$/.test(key)) return `#${value}`;
  if (typeof value === 'number') return value.toLocaleString('en-US');
  if (typeof value === 'string')
    return ISO_INSTANT.test(value) ? `${new Date(value).toISOString().slice(0, 16).replace('T', ' ')} UTC` : value;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null))
    return value.map((v) => valueWords(key, v)).join(', ') || 'none';
  return JSON.stringify(value);
}

/** A change of one field: `[before, after]` (changesOf) or `{ from, to }`. */
function asChange(value: unknown): { from: unknown; to: unknown } | null {
  if (Array.isArray(value) && value.length === 2) return { from: value[0], to: value[1] };
  if (value && typeof value === 'object' && !Array.isArray(value) && 'from' in value && 'to' in value) {
    const v = value as { from: unknown; to: unknown };
    return { from: v.from, to: v.to };
  }
  return null;
}

/** An audit entry's details in words. */
export interface AuditDetailWords {
  /** Each changed field: 'Price: $695.00 → $645.00'. */
  changes: string[];
  /** Every other detail: 'Discount code: RENEW25'. */
  facts: string[];
}

/**
 * An entry's `details` in words. The `changes` object that edits record (each field as
 * `[before, after]` or `{ from, to }`) becomes one "Field: before → after" line per field; a
 * `before`/`after` pair of objects is compared field by field the same way; every other key is a
 * fact line. Nested objects are read one level down ("Done: added 3, removed 1").
 */
export function auditDetailWords(details: Record<string, unknown>): AuditDetailWords {
  const changes: string[] = [];
  const facts: string[] = [];
  const change = (key: string, from: unknown, to: unknown) =>
    changes.push(`${fieldWords(key)}: ${valueWords(key, from)} → ${valueWords(key, to)}`);
  for (const [key, value] of Object.entries(details ?? {})) {
    if (key === 'changes' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [field, v] of Object.entries(value as Record<string, unknown>)) {
        const c = asChange(v);
        if (c) change(field, c.from, c.to);
        else facts.push(`${fieldWords(field)}: ${valueWords(field, v)}`);
      }
    } else if (key === 'before' && isPlainObject(value) && isPlainObject(details.after)) {
      const before = value;
      const after = details.after;
      for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) change(field, before[field], after[field]);
      }
    } else if (key === 'after' && isPlainObject(details.before)) {
      continue;
    } else if (isPlainObject(value)) {
      const inner = Object.entries(value).map(([k, v]) => `${fieldWords(k).toLowerCase()} ${valueWords(k, v)}`);
      facts.push(`${fieldWords(key)}: ${inner.join(', ') || 'none'}`);
    } else {
      facts.push(`${fieldWords(key)}: ${valueWords(key, value)}`);
    }
  }
  return { changes, facts };
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}
