import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SiteConfig } from '@tribuna/contracts/api/site';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

describe('GET /api/site', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(
      testConfig({
        CONTACT_EMAIL: 'hola@tribuna.mx',
        DEV_LOGIN: '1',
        SOCIAL_WHATSAPP_URL: 'https://chat.whatsapp.com/abc',
        SOCIAL_X_URL: 'https://x.com/tribuna',
      }),
    );
  });
  afterAll(async () => {
    await app.close();
  });

  it('returns the public settings from the configuration and nothing else', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/site' });
    expect(res.statusCode).toBe(200);
    expect(res.json<SiteConfig>()).toEqual({
      contactEmail: 'hola@tribuna.mx',
      devLogin: true,
      social: {
        whatsapp: 'https://chat.whatsapp.com/abc',
        facebook: null,
        instagram: null,
        tiktok: null,
        x: 'https://x.com/tribuna',
      },
    });
    expect(res.body).not.toContain('test-secret');
  });
});
