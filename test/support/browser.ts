import { chromium, type Browser } from 'playwright-core';

export { CHROMIUM_FLAGS } from '../../scripts/chromium.ts';
import { CHROMIUM_FLAGS } from '../../scripts/chromium.ts';

/** Debian's Chromium driven by playwright-core (no browser download). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
}
