import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export { CHROMIUM_FLAGS } from '../../scripts/chromium.ts';
import { CHROMIUM_FLAGS } from '../../scripts/chromium.ts';

/** Debian's Chromium driven by playwright-core (no browser download). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
}

/**
 * A browser context at `viewport` in `theme` (stored before the app runs, as the theme toggle does),
 * with reduced motion (no scan or screenshot catches a fade half-way), and signed in when `session`
 * says as whom (`token` of test/support/server/sessions.ts's signIn, on the server at `url`).
 */
export async function themedContext(
  browser: Browser,
  options: { viewport: { width: number; height: number }; theme: string; session?: { token: string; url: string } },
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: options.viewport, reducedMotion: 'reduce' });
  await context.addInitScript((value) => localStorage.setItem('tribuna-theme', value), options.theme);
  if (options.session) await context.addCookies([{ name: 'tribuna_session', value: options.session.token, url: options.session.url }]);
  return context;
}
