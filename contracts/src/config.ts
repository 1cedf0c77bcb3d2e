// Environment configuration shared by server, worker and launcher.
// Every variable of CONTRACT.md is parsed here once; a bad value names the variable.

export interface SocialLinks {
  whatsapp: string | null;
  facebook: string | null;
  instagram: string | null;
  tiktok: string | null;
  x: string | null;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  sessionSecret: string;
  googleClientId: string | null;
  googleClientSecret: string | null;
  oidcIssuer: string;
  adminEmails: string[];
  devLogin: boolean;
  /** REQUIRE_ADMIN_MFA: /api/admin/* only for sessions verified with a second factor (aal2). */
  requireAdminMfa: boolean;
  showTimezone: string;
  mediaDir: string;
  logLevel: string;
  contactEmail: string;
  social: SocialLinks;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/tribuna';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

function value(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

function parseUrl(env: Env, name: string, fallback: string, protocols: string[]): string {
  const raw = value(env, name) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw;
}

function optionalUrl(env: Env, name: string): string | null {
  const raw = value(env, name);
  if (raw === undefined) return null;
  return parseUrl(env, name, raw, ['https:', 'http:']);
}

function parseBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be 1/0 or true/false, got "${raw}"`);
}

function isValidTimezone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function loadConfig(env: Env = process.env): Config {
  const nodeEnvRaw = value(env, 'NODE_ENV') ?? 'development';
  if (!['development', 'production', 'test'].includes(nodeEnvRaw)) {
    throw new ConfigError('NODE_ENV', `must be development, production or test, got "${nodeEnvRaw}"`);
  }
  const nodeEnv = nodeEnvRaw as Config['nodeEnv'];
  const production = nodeEnv === 'production';

  const portRaw = value(env, 'PORT') ?? '3000';
  const port = Number(portRaw);
  if (!/^\d+$/.test(portRaw) || port < 0 || port > 65535) {
    throw new ConfigError('PORT', `must be a port number between 0 and 65535, got "${portRaw}"`);
  }

  const publicUrl = parseUrl(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']).replace(/\/$/, '');
  const databaseUrl = parseUrl(env, 'DATABASE_URL', DEFAULT_DATABASE_URL, ['postgres:', 'postgresql:']);
  const redisUrl = parseUrl(env, 'REDIS_URL', DEFAULT_REDIS_URL, ['redis:', 'rediss:']);

  const redisPrefix = value(env, 'REDIS_PREFIX') ?? 'tribuna';
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(redisPrefix)) {
    throw new ConfigError('REDIS_PREFIX', 'must be 1-64 characters of letters, digits, _ . : -');
  }

  let sessionSecret = value(env, 'SESSION_SECRET');
  if (sessionSecret === undefined) {
    if (production) throw new ConfigError('SESSION_SECRET', 'is required in production');
    sessionSecret = randomSecret();
  } else if (sessionSecret.length < 32) {
    throw new ConfigError('SESSION_SECRET', 'must be at least 32 characters');
  }

  const oidcIssuer = parseUrl(env, 'OIDC_ISSUER', 'https://accounts.google.com', ['https:', 'http:']).replace(/\/$/, '');

  const adminEmails = (value(env, 'ADMIN_EMAILS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const email of adminEmails) {
    if (!EMAIL.test(email)) throw new ConfigError('ADMIN_EMAILS', `contains an invalid e-mail "${email}"`);
  }

  const devLogin = parseBool(env, 'DEV_LOGIN', !production);
  if (devLogin && production) throw new ConfigError('DEV_LOGIN', 'is refused when NODE_ENV=production');

  const requireAdminMfa = parseBool(env, 'REQUIRE_ADMIN_MFA', false);

  const showTimezone = value(env, 'SHOW_TIMEZONE') ?? 'America/Mexico_City';
  if (!isValidTimezone(showTimezone)) {
    throw new ConfigError('SHOW_TIMEZONE', `must be an IANA time zone, got "${showTimezone}"`);
  }

  const contactEmail = value(env, 'CONTACT_EMAIL') ?? 'contacto@tribuna.mx';
  if (!EMAIL.test(contactEmail)) throw new ConfigError('CONTACT_EMAIL', `must be an e-mail, got "${contactEmail}"`);

  const logLevel = value(env, 'LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be a pino level, got "${logLevel}"`);
  }

  return {
    nodeEnv,
    port,
    host: value(env, 'HOST') ?? '0.0.0.0',
    publicUrl,
    databaseUrl,
    redisUrl,
    redisPrefix,
    sessionSecret,
    googleClientId: value(env, 'GOOGLE_CLIENT_ID') ?? null,
    googleClientSecret: value(env, 'GOOGLE_CLIENT_SECRET') ?? null,
    oidcIssuer,
    adminEmails,
    devLogin,
    requireAdminMfa,
    showTimezone,
    mediaDir: value(env, 'MEDIA_DIR') ?? './data/media',
    logLevel,
    contactEmail,
    social: {
      whatsapp: optionalUrl(env, 'SOCIAL_WHATSAPP_URL'),
      facebook: optionalUrl(env, 'SOCIAL_FACEBOOK_URL'),
      instagram: optionalUrl(env, 'SOCIAL_INSTAGRAM_URL'),
      tiktok: optionalUrl(env, 'SOCIAL_TIKTOK_URL'),
      x: optionalUrl(env, 'SOCIAL_X_URL'),
    },
  };
}

function randomSecret(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
