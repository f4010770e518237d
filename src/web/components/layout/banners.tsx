import { Alert, Container } from '@mantine/core';
import Cookies from 'js-cookie';
import { useState } from 'react';
import { BANNER_COOKIE_DAYS, bannerCookieName } from '../../../shared/rules/cookies.ts';
import { boot } from '../../lib/boot.ts';
import { hasPreferenceCookie } from '../../lib/cookies.ts';

/**
 * Holiday-alert and urgent-alert banners (docs/requirements/behaviour.md "Banner"): shown unless dismissed; the close
 * icon hides one and remembers it for 1 day in a cookie keyed on the banner text.
 */
export function Banners() {
  const [dismissed, setDismissed] = useState(
    () => new Set(boot.banners.filter((b) => hasPreferenceCookie(bannerCookieName(b.text))).map((b) => b.id)),
  );
  const visible = boot.banners.filter((b) => !dismissed.has(b.id));
  if (!visible.length) return null;
  return (
    <Container size="lg" pt="sm">
      {visible.map((b) => (
        <Alert
          key={b.id}
          className={b.kind}
          data-banner={b.kind}
          color={b.kind === 'urgent-alert' ? 'red' : 'blue'}
          title={b.kind === 'urgent-alert' ? 'Important' : 'Holiday hours'}
          withCloseButton
          closeButtonLabel="Dismiss this notice"
          onClose={() => {
            Cookies.set(bannerCookieName(b.text), '1', { expires: BANNER_COOKIE_DAYS, sameSite: 'lax', path: '/' });
            setDismissed(new Set([...dismissed, b.id]));
          }}
          mb="xs"
        >
          {b.text}
        </Alert>
      ))}
    </Container>
  );
}
