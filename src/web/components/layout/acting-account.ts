import { boot } from '../../lib/boot.ts';

/**
 * The account staff act for on this page, or null: staff reach an account's pages through
 * `?account_id=` links (from /admin/accounts/show/{id}), and every /app page reads the account from
 * that parameter (docs/app-home.md "Acting on behalf"). The public profile under
 * /app/account/show/{id} is nobody's account area, and /account shows the signed-in person's own
 * account whatever the address says (staff open an account's details on its staff page), so
 * neither gets the bar.
 */
export function actingAccountId(pathname: string, search: URLSearchParams): number | null {
  if (!boot.user?.isAdmin) return null;
  const inAccountArea =
    pathname === '/app' || (pathname.startsWith('/app/') && !pathname.startsWith('/app/account/show/'));
  const raw = search.get('account_id') ?? '';
  return inAccountArea && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
}
