/**
 * Officers (docs/wizard.md "Officers"): the treasurer must be a different person from the
 * president, so that two people look after the group's money. One rule for the wizard's form and
 * the server alike (the `different_person` field rule, src/shared/forms/rules.ts).
 */

/** The wizard's officer roles, by the word in their field names (`contact___{role}_first_name`). */
export type OfficerRole = 'president' | 'treasurer' | 'secretary' | 'advisor';

const ROLES: readonly OfficerRole[] = ['president', 'treasurer', 'secretary', 'advisor'];

/** Letters and digits only, lower case: 'Maria  Alvarez', 'maria alvarez' and 'MARIA-ALVAREZ' read alike. */
const nameKey = (first: unknown, last: unknown): string =>
  [first, last]
    .map((v) => (typeof v === 'string' ? v : ''))
    .join(' ')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * Whether the answers name the same person for both roles: the same first and last name, ignoring
 * case, spaces and punctuation. Blank names are never "the same" (the required rule speaks first).
 * @param values wizard answers by field name (`contact___{role}_first_name`, `_last_name`)
 */
export function isSamePerson(values: Record<string, unknown>, role: OfficerRole, other: OfficerRole): boolean {
  const a = nameKey(values[`contact___${role}_first_name`], values[`contact___${role}_last_name`]);
  const b = nameKey(values[`contact___${other}_first_name`], values[`contact___${other}_last_name`]);
  const hasBoth = (r: OfficerRole) =>
    [`contact___${r}_first_name`, `contact___${r}_last_name`].every(
      (k) => typeof values[k] === 'string' && (values[k] as string).trim() !== '',
    );
  return hasBoth(role) && hasBoth(other) && a === b;
}

/** The officer role a field belongs to, from its name (`contact___treasurer_first_name` → treasurer). */
export function officerRoleOf(fieldName: string): OfficerRole | null {
  const m = /^contact___([a-z]+)_/.exec(fieldName);
  return m && (ROLES as readonly string[]).includes(m[1]) ? (m[1] as OfficerRole) : null;
}

/** The message of the `different_person` rule, e.g. 'The treasurer must be a different person from the president.' */
export const differentPersonMessage = (role: OfficerRole, other: OfficerRole) =>
  `The ${role} must be a different person from the ${other}.`;

/** Whether `word` names an officer role. */
export const isOfficerRole = (word: string): word is OfficerRole => (ROLES as readonly string[]).includes(word);
