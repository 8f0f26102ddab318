import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { it } from 'vitest';

// The headless Chromium the browser tests drive with playwright-core (Debian's `chromium`
// package). CI installs it (.ci/run) and must run those tests; elsewhere a missing browser skips
// them with one line. CHROMIUM_PATH names the browser; else the first of these names on the PATH.

const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** The browser's executable. */
export const CHROMIUM =
  process.env.CHROMIUM_PATH ||
  (process.env.PATH ?? '')
    .split(delimiter)
    .flatMap((folder) => NAMES.map((name) => join(folder, name)))
    .find((candidate) => existsSync(candidate)) ||
  '/usr/bin/chromium';

/** Its command line: headless, no sandbox (root in a container), nothing that calls home. */
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

/**
 * Whether the browser is there; when it is not, says so once (`what` is skipped), and under
 * CI=true registers a failing test instead: CI must run the browser tests.
 */
export function chromiumAvailable(what: string): boolean {
  const available = existsSync(CHROMIUM);
  if (available) return true;
  if (process.env.CI === 'true') {
    it(`has Chromium to test ${what} with (CI=true)`, () => {
      throw new Error(
        `${CHROMIUM} is missing: install Debian's chromium package (apt-get install -y chromium), or set CHROMIUM_PATH`,
      );
    });
  } else {
    console.warn(`${what} browser test skipped: no ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  }
  return false;
}
