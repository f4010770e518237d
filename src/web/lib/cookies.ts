import Cookies from 'js-cookie';
import { boot } from './boot.ts';

/**
 * Whether the browser has the display-preference cookie `name` (a dismissed banner, a rated
 * page). In the server's render of a page, the names the request carried (`boot.preferenceCookies`),
 * so the server's HTML and the browser's first render agree.
 */
export function hasPreferenceCookie(name: string): boolean {
  if (typeof document === 'undefined') return (boot.preferenceCookies ?? []).includes(name);
  return Cookies.get(name) !== undefined;
}
