import { boot } from './boot.ts';

declare global {
  interface Window {
    grecaptcha?: { ready(cb: () => void): void; execute(siteKey: string, opts: { action: string }): Promise<string> };
  }
}

let loading: Promise<void> | undefined;

function load(siteKey: string): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = `https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`;
    s.async = true;
    s.onload = () => window.grecaptcha?.ready(() => resolve());
    s.onerror = () => reject(new Error('captcha script failed to load'));
    document.head.appendChild(s);
  });
  return loading;
}

/**
 * The invisible captcha token for a form submission (docs/requirements/calls.md), or undefined when no captcha is
 * configured. A script that fails to load yields no token, and the server refuses the form.
 */
export async function captchaToken(action: string): Promise<string | undefined> {
  const siteKey = boot.captchaSiteKey;
  if (!siteKey) return undefined;
  try {
    await load(siteKey);
    // Loaded means the script defined it; if it did not, no token, as for a script that failed.
    const { grecaptcha } = window;
    if (!grecaptcha) return undefined;
    return await grecaptcha.execute(siteKey, { action: action.replace(/[^A-Za-z_/]/g, '_') });
  } catch {
    return undefined;
  }
}
