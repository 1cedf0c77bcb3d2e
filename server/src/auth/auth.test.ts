import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

describe('GET /api/me without a session', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig());
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 401 User not authenticated', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'User not authenticated' });
  });
});
