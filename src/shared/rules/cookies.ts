/** Banner dismissal lasts 1 day (docs/requirements/constants.md). */
export const BANNER_COOKIE_DAYS = 1;
/** A submitted rating is remembered for 7 days (docs/requirements/constants.md). */
export const RATING_COOKIE_DAYS = 7;

/** A short stable hash (FNV-1a, 32-bit, base36) so a cookie name can be keyed on any text. */
export function textKey(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** Cookie that remembers a dismissed banner, keyed on the banner text (docs/requirements/behaviour.md "Banner"). */
export const bannerCookieName = (text: string) => `banner_dismissed_${textKey(text)}`;

/**
 * Cookie that remembers a rated page, keyed on the page's path (docs/requirements/behaviour.md "Rating widget"). The
 * key is a hash, not the encoded path: js-cookie encodes a name's '%' again, so an encoded path
 * became a name the server's render of the page did not know, and the page changed on hydration.
 */
export const ratingCookieName = (url: string) => `rated_${textKey(url)}`;

/**
 * Whether a cookie name is one of the visitor's display preferences above (a dismissed banner, a
 * rated page). The server passes these names to its render of a page, so the page it sends
 * already leaves out what the browser will hide.
 */
export const isDisplayPreferenceCookie = (name: string) =>
  name.startsWith('banner_dismissed_') || name.startsWith('rated_');
