/**
 * The path, query and fragment of `value` when it names a page of this site, else null: for
 * addresses taken from the query string, such as the sign-in page's `next`, so a crafted link
 * cannot send someone elsewhere after signing in. A leading single slash is not enough: browsers
 * read `\` as `/` and drop tabs and line breaks, so `/\evil.example` or `/<tab>/evil.example` lead to
 * another host. The value is resolved as the browser would and its origin compared.
 * @param value the address as received (anything but a string starting with `/` gives null)
 * @param origin this site's origin, e.g. `https://goodstanding.example` (window.location.origin)
 */
export function sameSitePath(value: unknown, origin: string): string | null {
  if (typeof value !== 'string' || !value.startsWith('/')) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : null;
}
