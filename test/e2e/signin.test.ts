import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockOidcProvider } from '../support/server/oidc.ts';
import { launchChromium } from '../support/browser.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const ADMIN_EMAIL = 'jefa@tribuna.test';

describe('Google sign-in in a real browser against a local OpenID Connect server', () => {
  let provider: MockOidcProvider;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    provider = await MockOidcProvider.start();
    // PUBLIC_URL is set by startServer to the listening address (the OAuth redirect target).
    const { PUBLIC_URL: _ignored, ...oidcEnv } = provider.env();
    server = await startServer({ ...oidcEnv, ADMIN_EMAILS: ADMIN_EMAIL, DEV_LOGIN: '0' });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await provider?.stop();
  });

  async function signInThroughLogin(claims: Record<string, unknown>): Promise<BrowserContext> {
    const context = await browser.newContext();
    const page = await context.newPage();
    provider.nextIdToken(claims);
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Continuar con Google' }).click();
    await page.waitForURL((url) => url.pathname !== '/login' && !url.pathname.startsWith('/auth'));
    return context;
  }

  it('signs a fan in and lands on /', async () => {
    const context = await signInThroughLogin({ email: 'fan.uno@example.com', email_verified: true, name: 'Fan Uno' });
    const page = context.pages()[0]!;
    expect(new URL(page.url()).pathname).toBe('/');
    const me = await page.evaluate(async () => (await fetch('/api/me')).json());
    expect(me).toMatchObject({ displayName: 'Fan Uno', role: 'user' });
    await context.close();
  });

  it('signs an ADMIN_EMAILS admin in and lands on /admin', async () => {
    const context = await signInThroughLogin({ email: ADMIN_EMAIL, email_verified: true, name: 'La Jefa' });
    const page = context.pages()[0]!;
    expect(new URL(page.url()).pathname).toBe('/admin');
    const me = await page.evaluate(async () => (await fetch('/api/me')).json());
    expect(me).toMatchObject({ role: 'admin' });
    await context.close();
  });

  it('sends a visitor from /perfil to /login', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/perfil`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('link', { name: 'Continuar con Google' }).waitFor();
    await context.close();
  });
});
