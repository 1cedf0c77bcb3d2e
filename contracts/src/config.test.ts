import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, loadConfig } from './config.ts';

const PRODUCTION_SECRET = 'x'.repeat(40);

/** Runs loadConfig expecting a ConfigError, and returns it. */
function configError(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults in development', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '0.0.0.0',
      publicUrl: 'http://localhost:3000',
      databaseUrl: DEFAULT_DATABASE_URL,
      redisUrl: DEFAULT_REDIS_URL,
      redisPrefix: 'tribuna',
      googleClientId: null,
      googleClientSecret: null,
      oidcIssuer: 'https://accounts.google.com',
      adminEmails: [],
      devLogin: true,
      showTimezone: 'America/Mexico_City',
      mediaDir: './data/media',
      logLevel: 'info',
    });
    expect(config.sessionSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(config.social).toEqual({ whatsapp: null, facebook: null, instagram: null, tiktok: null, x: null });
  });

  it('derives PUBLIC_URL from PORT and trims a trailing slash from an explicit one', () => {
    expect(loadConfig({ PORT: '4100' }).publicUrl).toBe('http://localhost:4100');
    expect(loadConfig({ PUBLIC_URL: 'https://tribuna.example/' }).publicUrl).toBe('https://tribuna.example');
  });

  it('generates a different random session secret per start in development', () => {
    expect(loadConfig({}).sessionSecret).not.toBe(loadConfig({}).sessionSecret);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', REDIS_PREFIX: '  ' })).toMatchObject({ port: 3000, redisPrefix: 'tribuna' });
  });

  it('parses admin e-mails, lower-cased and trimmed', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' Ana@Example.com, luis@example.mx ,' }).adminEmails).toEqual([
      'ana@example.com',
      'luis@example.mx',
    ]);
  });

  it('leaves REQUIRE_ADMIN_MFA off by default and parses it like DEV_LOGIN', () => {
    expect(loadConfig({}).requireAdminMfa).toBe(false);
    expect(loadConfig({ REQUIRE_ADMIN_MFA: '1' }).requireAdminMfa).toBe(true);
    expect(loadConfig({ REQUIRE_ADMIN_MFA: 'off' }).requireAdminMfa).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: PRODUCTION_SECRET, REQUIRE_ADMIN_MFA: 'true' }).requireAdminMfa).toBe(true);
  });

  it('accepts a complete production configuration without dev login', () => {
    const config = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: PRODUCTION_SECRET });
    expect(config).toMatchObject({ nodeEnv: 'production', devLogin: false, sessionSecret: PRODUCTION_SECRET });
  });

  it.each([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['PORT', { PORT: '-1' }],
    ['DATABASE_URL', { DATABASE_URL: 'not a url' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://localhost/tribuna' }],
    ['REDIS_URL', { REDIS_URL: 'http://localhost:6379' }],
    ['REDIS_URL', { REDIS_URL: '::' }],
    ['REDIS_PREFIX', { REDIS_PREFIX: 'has spaces' }],
    ['REDIS_PREFIX', { REDIS_PREFIX: 'x'.repeat(65) }],
    ['SESSION_SECRET', { NODE_ENV: 'production' }],
    ['SESSION_SECRET', { SESSION_SECRET: 'too-short' }],
    ['DEV_LOGIN', { NODE_ENV: 'production', SESSION_SECRET: PRODUCTION_SECRET, DEV_LOGIN: '1' }],
    ['DEV_LOGIN', { DEV_LOGIN: 'maybe' }],
    ['REQUIRE_ADMIN_MFA', { REQUIRE_ADMIN_MFA: 'maybe' }],
    ['SHOW_TIMEZONE', { SHOW_TIMEZONE: 'Mars/Olympus_Mons' }],
    ['ADMIN_EMAILS', { ADMIN_EMAILS: 'ana@example.com,not-an-email' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://example.com' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['CONTACT_EMAIL', { CONTACT_EMAIL: 'nobody' }],
    ['SOCIAL_X_URL', { SOCIAL_X_URL: 'javascript:alert(1)' }],
  ])('names %s in the error for %j', (variable, env) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it('says why SESSION_SECRET and DEV_LOGIN are refused in production', () => {
    expect(configError({ NODE_ENV: 'production' }).message).toMatch(/required in production/);
    expect(configError({ NODE_ENV: 'production', SESSION_SECRET: PRODUCTION_SECRET, DEV_LOGIN: 'true' }).message).toMatch(
      /refused/,
    );
  });
});
