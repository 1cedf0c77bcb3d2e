import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, DEFAULT_UPLOAD_BYTES_IN_FLIGHT, loadConfig } from './config.ts';

const PRODUCTION_SECRET = 'x'.repeat(40);
/** The least a production start needs. */
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: PRODUCTION_SECRET, PUBLIC_URL: 'https://tribuna.example' };

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
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      allowedHosts: [],
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
    expect(loadConfig({ ADMIN_EMAILS: ' Ana@Example.com, luis@example.mx ,' }).adminEmails).toEqual(['ana@example.com', 'luis@example.mx']);
  });

  it('leaves REQUIRE_ADMIN_MFA off by default and parses it like DEV_LOGIN', () => {
    expect(loadConfig({}).requireAdminMfa).toBe(false);
    expect(loadConfig({ REQUIRE_ADMIN_MFA: '1' }).requireAdminMfa).toBe(true);
    expect(loadConfig({ REQUIRE_ADMIN_MFA: 'off' }).requireAdminMfa).toBe(false);
    expect(loadConfig({ ...PRODUCTION, REQUIRE_ADMIN_MFA: 'true' }).requireAdminMfa).toBe(true);
  });

  it('hides a reported item after 5 trusted reporters unless MODERATION_AUTO_HIDE_REPORTERS says otherwise (1 to 1000)', () => {
    expect(loadConfig({}).moderationAutoHideReporters).toBe(5);
    expect(loadConfig({ MODERATION_AUTO_HIDE_REPORTERS: '12' }).moderationAutoHideReporters).toBe(12);
    for (const bad of ['0', '1001', 'cinco']) expect(() => loadConfig({ MODERATION_AUTO_HIDE_REPORTERS: bad }), bad).toThrow(/MODERATION_AUTO_HIDE_REPORTERS/);
  });

  it('accepts a complete production configuration without dev login', () => {
    const config = loadConfig(PRODUCTION);
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
    ['DEV_LOGIN', { ...PRODUCTION, DEV_LOGIN: '1' }],
    ['PUBLIC_URL', { NODE_ENV: 'production', SESSION_SECRET: PRODUCTION_SECRET }],
    ['PUBLIC_URL', { ...PRODUCTION, PUBLIC_URL: 'http://tribuna.example' }],
    ['OIDC_ISSUER', { ...PRODUCTION, OIDC_ISSUER: 'http://issuer.example' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'everyone' }],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
    ['TRUST_PROXY', { TRUST_PROXY: '99' }],
    ['TOTP_ENCRYPTION_KEY', { TOTP_ENCRYPTION_KEY: 'short' }],
    ['TOTP_ENCRYPTION_PREVIOUS_KEYS', { TOTP_ENCRYPTION_PREVIOUS_KEYS: 'a'.repeat(64) + ',nope' }],
    ['WS_MAX_CONNECTIONS', { WS_MAX_CONNECTIONS: '0' }],
    ['WS_MAX_CONNECTIONS_PER_ADDRESS', { WS_MAX_CONNECTIONS_PER_ADDRESS: 'many' }],
    ['UPLOAD_BYTES_IN_FLIGHT', { UPLOAD_BYTES_IN_FLIGHT: '64MB' }],
    ['UPLOAD_BYTES_IN_FLIGHT', { UPLOAD_BYTES_IN_FLIGHT: '1000' }],
    ['DEV_LOGIN', { DEV_LOGIN: 'maybe' }],
    ['REQUIRE_ADMIN_MFA', { REQUIRE_ADMIN_MFA: 'maybe' }],
    ['SHOW_TIMEZONE', { SHOW_TIMEZONE: 'Mars/Olympus_Mons' }],
    ['ADMIN_EMAILS', { ADMIN_EMAILS: 'ana@example.com,not-an-email' }],
    ['NODE_ENV', { NODE_ENV: 'staging' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'ftp://example.com' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['CONTACT_EMAIL', { CONTACT_EMAIL: 'nobody' }],
    ['SOCIAL_X_URL', { SOCIAL_X_URL: 'javascript:alert(1)' }],
    ['ALLOWED_HOSTS', { ALLOWED_HOSTS: 'https://tribuna.example' }],
  ])('names %s in the error for %j', (variable, env) => {
    const error = configError(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it('says why SESSION_SECRET and DEV_LOGIN are refused in production', () => {
    expect(configError({ NODE_ENV: 'production' }).message).toMatch(/required in production/);
    expect(configError({ ...PRODUCTION, DEV_LOGIN: 'true' }).message).toMatch(/refused/);
  });

  describe('development sign-in', () => {
    it('is on by default only when PUBLIC_URL is a loopback address outside production', () => {
      for (const url of ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://127.9.9.9', 'http://[::1]:3000', 'http://app.localhost']) {
        expect(loadConfig({ PUBLIC_URL: url }).devLogin, url).toBe(true);
      }
      for (const url of ['http://tribuna.example', 'https://192.168.1.10', 'http://0.0.0.0:3000', 'http://[::2]', 'http://localhost.example.com']) {
        expect(loadConfig({ PUBLIC_URL: url }).devLogin, url).toBe(false);
      }
    });

    it('stays off without NODE_ENV on a public address, as a PaaS or a VM would start it', () => {
      const config = loadConfig({ PUBLIC_URL: 'https://tribuna.example', SESSION_SECRET: PRODUCTION_SECRET });
      expect(config.nodeEnv).toBe('development');
      expect(config.devLogin).toBe(false);
      expect(config.warnings).toEqual([]);
    });

    it('starts with a loud warning when forced on for a public address', () => {
      const config = loadConfig({ PUBLIC_URL: 'https://tribuna.example', DEV_LOGIN: '1' });
      expect(config.devLogin).toBe(true);
      expect(config.warnings).toHaveLength(1);
      expect(config.warnings[0]).toMatch(/DEV_LOGIN=1.*https:\/\/tribuna\.example.*ANY user/);
    });

    it('can be turned off on a laptop and has no warning there', () => {
      expect(loadConfig({ DEV_LOGIN: '0' }).devLogin).toBe(false);
      expect(loadConfig({}).warnings).toEqual([]);
    });

    it('makes the server listen on loopback only, unless HOST says otherwise; every interface when off', () => {
      expect(loadConfig({}).host).toBe('127.0.0.1');
      expect(loadConfig({ PUBLIC_URL: 'https://tribuna.example', DEV_LOGIN: '1' }).host).toBe('127.0.0.1');
      expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
      expect(loadConfig({ HOST: '::' }).host).toBe('::');
      expect(loadConfig({ DEV_LOGIN: '0' }).host).toBe('0.0.0.0');
      expect(loadConfig({ PUBLIC_URL: 'https://tribuna.example' }).host).toBe('0.0.0.0');
      expect(loadConfig(PRODUCTION).host).toBe('0.0.0.0');
      expect(loadConfig({ ...PRODUCTION, HOST: '10.0.0.7' }).host).toBe('10.0.0.7');
    });
  });

  describe('ALLOWED_HOSTS', () => {
    it('lists extra Host names, lower-cased, each with an optional port', () => {
      expect(loadConfig({ ALLOWED_HOSTS: ' Server, tribuna-server:3000 ,10.0.0.5,[::1]:8080,www.Tribuna.mx.,' }).allowedHosts).toEqual([
        'server',
        'tribuna-server:3000',
        '10.0.0.5',
        '[::1]:8080',
        'www.tribuna.mx.',
      ]);
    });

    it('refuses anything that is not a Host value, naming the entry', () => {
      for (const entry of [
        'http://tribuna.example',
        'tribuna.example/path',
        '*.tribuna.example',
        'user@tribuna.example',
        '::1',
        'tribuna.example:99999',
        'tribuna.example:',
        'a b',
      ]) {
        const error = configError({ ALLOWED_HOSTS: `tribuna.example,${entry}` });
        expect(error.variable, entry).toBe('ALLOWED_HOSTS');
        expect(error.message, entry).toContain(`"${entry.toLowerCase()}"`);
      }
    });
  });

  it('requires https for PUBLIC_URL and OIDC_ISSUER in production and says so', () => {
    expect(configError({ ...PRODUCTION, PUBLIC_URL: 'http://tribuna.example' }).message).toMatch(/PUBLIC_URL must be https in production/);
    expect(configError({ ...PRODUCTION, OIDC_ISSUER: 'http://127.0.0.1:9000' }).message).toMatch(/OIDC_ISSUER must be https in production/);
  });

  it('parses TRUST_PROXY as off, a hop count or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.1 ,::1,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.1',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('reads the upload budget in bytes, and warns when it cannot take the largest post', () => {
    expect(loadConfig({})).toMatchObject({ uploadBytesInFlight: DEFAULT_UPLOAD_BYTES_IN_FLIGHT, warnings: [] });
    expect(DEFAULT_UPLOAD_BYTES_IN_FLIGHT).toBe(256 * 1024 * 1024);
    expect(loadConfig({ UPLOAD_BYTES_IN_FLIGHT: String(512 * 1024 * 1024) })).toMatchObject({ uploadBytesInFlight: 512 * 1024 * 1024, warnings: [] });
    const small = loadConfig({ UPLOAD_BYTES_IN_FLIGHT: String(64 * 1024 * 1024) });
    expect(small.uploadBytesInFlight).toBe(64 * 1024 * 1024);
    expect(small.warnings).toEqual([expect.stringMatching(/UPLOAD_BYTES_IN_FLIGHT=67108864 .*largest posts/)]);
  });

  it('reads the TOTP encryption keys and the websocket caps', () => {
    const hex = 'ab'.repeat(32);
    const config = loadConfig({
      TOTP_ENCRYPTION_KEY: hex,
      TOTP_ENCRYPTION_PREVIOUS_KEYS: `${'cd'.repeat(32)}, ${'ef'.repeat(32)}`,
      WS_MAX_CONNECTIONS: '100',
      WS_MAX_CONNECTIONS_PER_ADDRESS: '3',
    });
    expect(config).toMatchObject({
      totpEncryptionKey: hex,
      totpEncryptionPreviousKeys: ['cd'.repeat(32), 'ef'.repeat(32)],
      wsMaxConnections: 100,
      wsMaxConnectionsPerAddress: 3,
    });
    expect(loadConfig({})).toMatchObject({
      totpEncryptionKey: null,
      totpEncryptionPreviousKeys: [],
      wsMaxConnections: 50_000,
      wsMaxConnectionsPerAddress: 200,
    });
  });
});
