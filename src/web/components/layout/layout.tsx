import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigation, matchPath } from 'react-router';
import { SHELL_PAGES } from '../../../shared/shell-pages.ts';
import logoUrl from '../../favicon.svg';
import { boot } from '../../lib/boot.ts';
import { deferredComponent } from '../../lib/deferred-component.tsx';
import { actingAccountId } from './acting-account.ts';
import classes from './layout.module.css';
// Through the build, so it gets a content-hashed name and is cached for good.

const NAV = SHELL_PAGES.filter((p) => p.nav);

// The shell is plain elements styled like Mantine's Button, Anchor and Burger (layout.module.css):
// it is part of every page's initial JavaScript, and those components would bring Mantine's
// button, loader and transition code to pages that show none (docs/ARCHITECTURE.md "Initial JavaScript").
type ButtonLook = 'default' | 'light' | 'subtle';
const buttonClass = (look: ButtonLook) => `${classes.button} ${classes[look]}`;

function ShellButton({ to, look, children }: { to: string; look: ButtonLook; children: ReactNode }) {
  return (
    <Link to={to} className={buttonClass(look)}>
      {children}
    </Link>
  );
}

// Parts of the shell most first screens do not need are chunks of their own, out of the entry
// script (docs/ARCHITECTURE.md "Initial JavaScript"): the drawer loads when the menu is first
// opened; the rating form (below the fold), the banners and the acting bar are loaded only on pages
// that show them, and React takes over their server-rendered HTML once their chunk arrives. The
// server's render loads them first (`preloadDeferredComponents`, src/web/entry-server.tsx).
const PhoneMenu = lazy(() => import('./phone-menu.tsx'));
const RatingWidget = deferredComponent(
  () => import('./rating-widget.tsx'),
  (m) => m.RatingWidget,
);
const Banners = deferredComponent(
  () => import('./banners.tsx'),
  (m) => m.Banners,
);
const ActingBanner = deferredComponent(
  () => import('./acting-banner.tsx'),
  (m) => m.ActingBanner,
);

async function signOut() {
  // The request helper and the contract come with the click: most first screens send nothing, and
  // the contract's schemas (zod) stay out of every page's start-up (docs/decisions/005-public-page-start-up.md).
  const [{ call, setCsrfToken }, { signInContracts }] = await Promise.all([
    import('../../lib/http.ts'),
    import('../../../shared/contracts/sign-in.ts'),
  ]);
  const res = await call(signInContracts.logout, {});
  setCsrfToken(res.csrfToken);
  window.location.assign(res.redirect);
}

function NavLinks({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <>
      {NAV.map((p) => (
        <NavLink key={p.path} to={p.path} className={classes.link} onClick={onNavigate}>
          {p.nav}
        </NavLink>
      ))}
    </>
  );
}

function Account() {
  if (!boot.user)
    return (
      <ShellButton to="/login" look="default">
        Sign in
      </ShellButton>
    );
  return (
    <div className={classes.row} style={{ gap: 'var(--mantine-spacing-xs)' }}>
      {boot.user.isAdmin ? (
        <ShellButton to="/admin" look="light">
          Admin
        </ShellButton>
      ) : (
        <>
          <ShellButton to="/app" look="light">
            Your group
          </ShellButton>
          <ShellButton to="/account" look="subtle">
            Your account
          </ShellButton>
        </>
      )}
      <button type="button" className={buttonClass('subtle')} onClick={() => void signOut()}>
        Sign out
      </button>
    </div>
  );
}

/** The site shell: header with the company name, navigation to every public tool and phone; banners; footer. */
export function Layout() {
  const [opened, setOpened] = useState(false);
  const close = () => setOpened(false);
  // The phone menu is mounted when first opened: a closed drawer still costs its portal and
  // scroll lock on every page load.
  const [menuMounted, setMenuMounted] = useState(false);
  const { pathname, search } = useLocation();
  // The router loads the next screen's code before showing it: say so meanwhile.
  const navigating = useNavigation().state === 'loading';
  const page = SHELL_PAGES.find((p) => matchPath(p.path, pathname));
  const { company } = boot;
  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skip}>
        Skip to content
      </a>
      {navigating && <div className={classes.progress} role="status" aria-label="Loading the page" />}
      <header className={classes.header}>
        <div className={classes.container}>
          <div className={classes.bar}>
            <Link to="/" className={classes.brand}>
              <img src={logoUrl} alt="" width={28} height={28} />
              <span>{company.name}</span>
            </Link>
            <div className={`${classes.row} ${classes.wide}`}>
              {company.phone && (
                <a href={`tel:${company.phone.replace(/[^\d+]/g, '')}`} className={`${classes.small} ${classes.phone}`}>
                  {company.phone}
                </a>
              )}
              <Account />
            </div>
            <button
              type="button"
              className={`${classes.burger} ${classes.narrow}`}
              onClick={() => {
                setMenuMounted(true);
                setOpened((o) => !o);
              }}
              aria-label="Open navigation"
              aria-expanded={opened}
            >
              <span className={classes.burgerLines} data-opened={opened || undefined} />
            </button>
          </div>
          <nav aria-label="Main" className={classes.nav}>
            <div className={`${classes.row} ${classes.wide}`} style={{ gap: 4, flexWrap: 'wrap' }}>
              <NavLinks />
            </div>
          </nav>
        </div>
      </header>
      {menuMounted && (
        <Suspense fallback={null}>
          <PhoneMenu
            opened={opened}
            onClose={close}
            title={company.name}
            phone={company.phone}
            links={<NavLinks onNavigate={close} />}
            account={<Account />}
          />
        </Suspense>
      )}
      {actingAccountId(pathname, new URLSearchParams(search)) !== null && (
        <Suspense fallback={null}>
          <ActingBanner />
        </Suspense>
      )}
      {boot.banners.length > 0 && (
        <Suspense fallback={null}>
          <Banners />
        </Suspense>
      )}
      <main id="main" className={`${classes.container} ${classes.main}`}>
        {/* The screen holds at least a screen's height, so what follows it (the rating widget,
            the footer) starts below the fold instead of jumping down as its data loads (CLS). */}
        <div className={classes.screenful}>
          <Suspense fallback={null}>
            <Outlet />
          </Suspense>
        </div>
        {page?.hasRating && (
          <Suspense fallback={null}>
            <RatingWidget key={pathname} />
          </Suspense>
        )}
      </main>
      <footer className={classes.footer}>
        <div className={`${classes.container} ${classes.footerBar}`}>
          {/* The server's year and the browser's can differ around New Year. */}
          <p className={`${classes.small} ${classes.dimmed}`} suppressHydrationWarning>
            © {new Date().getFullYear()} {company.name}
            {company.phone ? ` · ${company.phone}` : ''}
          </p>
          <div className={classes.row} style={{ flexWrap: 'wrap' }}>
            <Link to="/privacy" className={`${classes.small} ${classes.anchor}`}>
              Privacy policy
            </Link>
            <Link to="/contact" className={`${classes.small} ${classes.anchor}`}>
              Contact
            </Link>
            <Link to="/campus-report" className={`${classes.small} ${classes.anchor}`}>
              Campus report
            </Link>
            {boot.user?.isAdmin && page?.seoCheck && (
              <a
                href={`/admin/yoast/show?url=${encodeURIComponent(pathname)}`}
                target="_blank"
                rel="noopener"
                className={`${classes.small} ${classes.anchor}`}
              >
                SEO check
              </a>
            )}
          </div>
        </div>
      </footer>
    </div>
  );
}
