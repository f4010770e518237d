/** The system Chromium of docs/requirements/platform.md §8 (Debian's `chromium` package); test tools cannot download their own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** The flags of docs/requirements/platform.md §8: headless, no sandbox or GPU, no background traffic. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
