import { lazy, Suspense, useState } from 'react';
import { Anchor, Box, Burger, Button, Container, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink, Outlet, useLocation, useNavigation, matchPath } from 'react-router';
import { PAGES } from '../../../shared/routes.ts';
import { boot } from '../../lib/boot.ts';
import { actingAccountId } from './acting-account.ts';
import { deferredComponent } from '../../lib/deferred-component.tsx';
import classes from './layout.module.css';
// Through the build, so it gets a content-hashed name and is cached for good.
import logoUrl from '../../favicon.svg';

const NAV = PAGES.filter((p) => p.nav);

// Parts of the shell most first screens do not need are chunks of their own, out of the entry
// script (docs/ARCHITECTURE.md "Initial JavaScript"): the drawer loads when the menu is first
// opened; the rating form (below the fold), the banners and the acting bar are loaded only on pages
// that show them, and React takes over their server-rendered HTML once their chunk arrives. The
// server's render loads them first (`preloadShellParts`, src/web/entry-server.tsx).
const PhoneMenu = lazy(() => import('./phone-menu.tsx'));
const RatingWidget = deferredComponent(() => import('./rating-widget.tsx'), (m) => m.RatingWidget);
const Banners = deferredComponent(() => import('./banners.tsx'), (m) => m.Banners);
const ActingBanner = deferredComponent(() => import('./acting-banner.tsx'), (m) => m.ActingBanner);

/** Loads the shell's deferred parts, for a render that cannot wait for them (the server's). */
export const preloadShellParts = () => Promise.all([RatingWidget.preload(), Banners.preload(), ActingBanner.preload()]);

async function signOut() {
  // The request helper comes with the screens that send forms; most first screens send nothing.
  const { http, setCsrfToken } = await import('../../lib/http.ts');
  const res = await http.post<{ redirect: string; csrfToken: string }>('/logout');
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
  if (!boot.user) return <Button component={Link} to="/login" variant="default" size="xs">Sign in</Button>;
  return (
    <Group gap="xs">
      {boot.user.isAdmin ? (
        <Button component={Link} to="/admin" variant="light" size="xs">Admin</Button>
      ) : (
        <>
          <Button component={Link} to="/app" variant="light" size="xs">Your group</Button>
          <Button component={Link} to="/account" variant="subtle" size="xs">Your account</Button>
        </>
      )}
      <Button variant="subtle" size="xs" onClick={() => void signOut()}>Sign out</Button>
    </Group>
  );
}

/** The site shell: header with the company name, navigation to every public tool and phone; banners; footer. */
export function Layout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  // The phone menu is mounted when first opened: a closed drawer still costs its portal and
  // scroll lock on every page load.
  const [menuMounted, setMenuMounted] = useState(false);
  const { pathname, search } = useLocation();
  // The router loads the next screen's code before showing it: say so meanwhile.
  const navigating = useNavigation().state === 'loading';
  const page = PAGES.find((p) => matchPath(p.path, pathname));
  const { company } = boot;
  return (
    <Box className={classes.shell}>
      <a href="#main" className={classes.skip}>Skip to content</a>
      {navigating && <div className={classes.progress} role="status" aria-label="Loading the page" />}
      <header className={classes.header}>
        <Container size="lg">
          <Group justify="space-between" h={60} wrap="nowrap">
            <Group gap="sm" wrap="nowrap">
              <Anchor component={Link} to="/" className={classes.brand} underline="never">
                <img src={logoUrl} alt="" width={28} height={28} />
                <span>{company.name}</span>
              </Anchor>
            </Group>
            <Group gap="md" visibleFrom="md" wrap="nowrap">
              {company.phone && (
                <Anchor href={`tel:${company.phone.replace(/[^\d+]/g, '')}`} size="sm" c="gray.7">{company.phone}</Anchor>
              )}
              <Account />
            </Group>
            <Burger opened={opened} onClick={() => { setMenuMounted(true); toggle(); }} hiddenFrom="md" aria-label="Open navigation" />
          </Group>
          <nav aria-label="Main" className={classes.nav}>
            <Group gap={4} visibleFrom="md">
              <NavLinks />
            </Group>
          </nav>
        </Container>
      </header>
      {menuMounted && (
        <Suspense fallback={null}>
          <PhoneMenu opened={opened} onClose={close} title={company.name} phone={company.phone} links={<NavLinks onNavigate={close} />} account={<Account />} />
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
      <Container size="lg" component="main" id="main" py="xl" className={classes.main}>
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
      </Container>
      <footer className={classes.footer}>
        <Container size="lg">
          <Group justify="space-between" py="lg">
            {/* The server's year and the browser's can differ around New Year. */}
            <Text size="sm" c="dimmed" suppressHydrationWarning>© {new Date().getFullYear()} {company.name}{company.phone ? ` · ${company.phone}` : ''}</Text>
            <Group gap="md">
              <Anchor component={Link} to="/privacy" size="sm">Privacy policy</Anchor>
              <Anchor component={Link} to="/contact" size="sm">Contact</Anchor>
              <Anchor component={Link} to="/campus-report" size="sm">Campus report</Anchor>
              {boot.user?.isAdmin && page?.access === 'public' && page.description && (
                <Anchor href={`/admin/yoast/show?url=${encodeURIComponent(pathname)}`} target="_blank" rel="noopener" size="sm">SEO check</Anchor>
              )}
            </Group>
          </Group>
        </Container>
      </footer>
    </Box>
  );
}
