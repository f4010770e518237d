/** Labels of the five strength levels, weakest first (docs/requirements/behaviour.md "Password strength levels"). */
export const STRENGTH_LABELS = ['Very weak', 'Weak', 'Fair', 'Strong', 'Very strong'] as const;
export type StrengthLabel = (typeof STRENGTH_LABELS)[number];

/** A bar is lit while the score is above its threshold (docs/requirements/constants.md "Password meter"). */
export const STRENGTH_BAR_THRESHOLDS = [0, 6, 7, 8, 9] as const;

const SPECIALS = '!%&@#$^*?_~';

function hasAscendingRun(password: string): boolean {
  const s = password.toLowerCase();
  for (let i = 0; i + 2 < s.length; i++) {
    const a = s.charCodeAt(i);
    const b = s.charCodeAt(i + 1);
    const c = s.charCodeAt(i + 2);
    const sameClass = (/[a-z]/.test(s[i]) && /[a-z]/.test(s[i + 2])) || (/\d/.test(s[i]) && /\d/.test(s[i + 2]));
    if (sameClass && b === a + 1 && c === b + 1) return true;
  }
  return false;
}

/**
 * Password strength score of docs/requirements/validation.md: starts at 1; +4 for a length of at least 8, +1 each for a
 * lowercase letter, letters and digits with no whitespace, an uppercase letter, one special
 * character of !%&@#$^*?_~, two special characters; -1 each for a character repeated three times,
 * an ascending run (abc, 123), and the keyboard patterns qwer or asdf.
 * @param password the raw password (never logged)
 * @returns an integer, 1 for an empty password, at most 10
 */
export function passwordScore(password: string): number {
  let score = 1;
  if (password.length >= 8) score += 4;
  if (/[a-z]/.test(password)) score += 1;
  if (/[a-zA-Z]/.test(password) && /\d/.test(password) && !/\s/.test(password)) score += 1;
  if (/[A-Z]/.test(password)) score += 1;
  const specials = [...password].filter((ch) => SPECIALS.includes(ch)).length;
  if (specials >= 1) score += 1;
  if (specials >= 2) score += 1;
  if (/(.)\1\1/.test(password)) score -= 1;
  if (hasAscendingRun(password)) score -= 1;
  if (/qwer|asdf/i.test(password)) score -= 1;
  return score;
}

/**
 * The meter reading for a password: how many of the 5 bars are lit and the visible label.
 * Labels: Very weak from 1, Weak above 6, Fair above 7, Strong above 8, Very strong above 9 (docs/requirements/validation.md).
 */
export function passwordStrength(password: string): { score: number; bars: number; label: StrengthLabel } {
  const score = passwordScore(password);
  const bars = STRENGTH_BAR_THRESHOLDS.filter((t) => score > t).length;
  return { score, bars, label: STRENGTH_LABELS[Math.max(0, bars - 1)] };
}
