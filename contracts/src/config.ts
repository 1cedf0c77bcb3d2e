// Environment configuration shared by server, worker and launcher.
// Every variable of CONTRACT.md is parsed here once; a bad value names the variable.
import { MODERATION_LIMITS } from './moderationRules.ts';

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
  /** HOST: the address to listen on; by default loopback (127.0.0.1) while development sign-in is on, else every interface. */
  host: string;
  publicUrl: string;
  /**
   * ALLOWED_HOSTS: Host header values accepted besides PUBLIC_URL's host (lowercase `name`, any
   * port, or `name:port`), e.g. the upstream name a proxy that rewrites Host sends.
   */
  allowedHosts: string[];
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  sessionSecret: string;
  googleClientId: string | null;
  googleClientSecret: string | null;
  oidcIssuer: string;
  adminEmails: string[];
  devLogin: boolean;
  /**
   * TRUST_PROXY: how many proxy hops (a number) or which proxy addresses (IPs or CIDRs, or
   * proxy-addr's names loopback/linklocal/uniquelocal) sit in front of the server; false: none, so
   * request.ip is the socket's peer. Passed to Fastify's trustProxy as is.
   */
  trustProxy: false | number | string[];
  /**
   * TOTP_ENCRYPTION_KEY: 32 bytes (64 hex characters or base64) encrypting second-factor secrets
   * at rest; null: derived from SESSION_SECRET with HKDF.
   */
  totpEncryptionKey: string | null;
  /** TOTP_ENCRYPTION_PREVIOUS_KEYS: older keys (same format, comma-separated) still accepted for decryption during a rotation. */
  totpEncryptionPreviousKeys: string[];
  /** WS_MAX_CONNECTIONS: websocket connections one server instance accepts. */
  wsMaxConnections: number;
  /** WS_MAX_CONNECTIONS_PER_ADDRESS: websocket connections one client address may hold on one instance. */
  wsMaxConnectionsPerAddress: number;
  /** Start-up warnings the entry points print loudly (e.g. development sign-in on a public address). */
  warnings: string[];
  /** REQUIRE_ADMIN_MFA: /api/admin/* only for sessions verified with a second factor (aal2). */
  requireAdminMfa: boolean;
  /**
   * MODERATION_AUTO_HIDE_REPORTERS (issue 29): distinct fans with accounts older than a day whose
   * open reports hide a post or comment pending review.
   */
  moderationAutoHideReporters: number;
  showTimezone: string;
  mediaDir: string;
  /**
   * UPLOAD_BYTES_IN_FLIGHT: bytes of uploaded files one server instance holds at once (streamed to
   * temporary files while their requests are read and processed); beyond it an upload is refused
   * with 503 and Retry-After.
   */
  uploadBytesInFlight: number;
  logLevel: string;
  contactEmail: string;
  social: SocialLinks;
  /** Web push (issue 31). */
  push: PushConfig;
  /**
   * TRANSCODE_NICENESS: the worker's FFmpeg niceness, 0-19 (default 19, in Linux's idle scheduling
   * class so votes keep their rate while a clip is transcoded); 0 runs it at normal priority (no idle
   * class): the end-to-end tests, whose run keeps every core busy, where an idle-class FFmpeg would
   * get no CPU for as long as that lasts.
   */
  transcodeNiceness: number;
  /**
   * PUSH_NICENESS: the niceness (0-19, default 19) of the worker's push encryption thread, which also
   * runs in Linux's idle scheduling class above 0: a broadcast's encryption (most of a push's CPU)
   * uses only what the server and PostgreSQL leave idle. 0 encrypts inline at normal priority (tests).
   */
  pushNiceness: number;
}

export interface PushConfig {
  /**
   * VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (base64url: a P-256 point of 65 bytes and a scalar of 32),
   * both or neither. Neither: outside production the keys are generated on first start and kept in
   * `keysFile`; in production push is off (a start-up warning says so).
   */
  vapidPublicKey: string | null;
  vapidPrivateKey: string | null;
  /** VAPID_KEYS_FILE (development and tests only): where generated keys are kept. Default ./data/vapid.json. */
  keysFile: string;
  /** VAPID_SUBJECT: a mailto: or https: URL push services may contact (Apple refuses others). Default mailto:CONTACT_EMAIL. */
  subject: string;
  /**
   * PUSH_TEST_ENDPOINT_ORIGINS: origins (e.g. http://127.0.0.1:4100) accepted as push endpoints
   * besides the browsers' push services, whatever their address: the tests' local push service.
   * Refused in production.
   */
  testEndpointOrigins: string[];
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

function parsePositiveInt(env: Env, name: string, fallback: number, max = 10_000_000): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < 1 || n > max) throw new ConfigError(name, `must be a whole number between 1 and ${max}, got "${raw}"`);
  return n;
}

function parseNiceness(env: Env, name: string, fallback: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n > 19) throw new ConfigError(name, `must be a whole number between 0 and 19, got "${raw}"`);
  return n;
}

function parseByteCount(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = value(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) throw new ConfigError(name, `must be a number of bytes between ${min} and ${max}, got "${raw}"`);
  return n;
}

/** Whether a URL's host is this machine: localhost (and *.localhost), 127.0.0.0/8 or [::1]. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9a-f:.]+$/i;
const PROXY_ADDR_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDR_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && address.includes(':') && IPV6.test(address);
  if (!v4 && !v6) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (v4 ? 32 : 128);
}

function parseTrustProxy(env: Env): Config['trustProxy'] {
  const raw = value(env, 'TRUST_PROXY');
  if (raw === undefined || ['0', 'false', 'off', 'no'].includes(raw.toLowerCase())) return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 10) throw new ConfigError('TRUST_PROXY', `must be a hop count up to 10 or a list of proxy addresses, got "${raw}"`);
    return hops;
  }
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!isProxyAddress(entry)) {
      throw new ConfigError('TRUST_PROXY', `must be a hop count or a comma-separated list of IP addresses or CIDRs, got "${entry}"`);
    }
  }
  return entries;
}

/** A Host header value: a DNS name or an IPv4 address, or an IPv6 one in brackets, and an optional port. */
const HOST_ENTRY = /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

function parseAllowedHosts(env: Env): string[] {
  const entries = (value(env, 'ALLOWED_HOSTS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    if (!HOST_ENTRY.test(entry) || Number(entry.match(/:(\d+)$/)?.[1] ?? 0) > 65535) {
      throw new ConfigError('ALLOWED_HOSTS', `must be comma-separated host names, each with an optional :port (no scheme, path or wildcard), got "${entry}"`);
    }
  }
  return entries;
}

const KEY_HEX = /^[0-9a-f]{64}$/i;
const KEY_BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;

function parseKey(name: string, raw: string): string {
  if (!KEY_HEX.test(raw) && !KEY_BASE64.test(raw)) {
    throw new ConfigError(name, 'must be 32 bytes written as 64 hex characters or base64 (openssl rand -hex 32)');
  }
  return raw;
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

const MIB = 1024 * 1024;
/** The default upload budget: two and a half of the largest posts (10 images under 10 MB), or dozens of usual ones. */
export const DEFAULT_UPLOAD_BYTES_IN_FLIGHT = 256 * MIB;
/** A post of 10 images under 10 MB: a smaller budget can never take one. */
const LARGEST_UPLOAD_BYTES = 100 * MIB;

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
  if (production) {
    // Cookies marked Secure, HSTS and the OAuth redirect all depend on https in production.
    if (!publicUrl.startsWith('https://')) throw new ConfigError('PUBLIC_URL', `must be https in production, got "${publicUrl}"`);
    if (!oidcIssuer.startsWith('https://')) throw new ConfigError('OIDC_ISSUER', `must be https in production, got "${oidcIssuer}"`);
  }

  const adminEmails = (value(env, 'ADMIN_EMAILS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const email of adminEmails) {
    if (!EMAIL.test(email)) throw new ConfigError('ADMIN_EMAILS', `contains an invalid e-mail "${email}"`);
  }

  const warnings: string[] = [];
  // Development sign-in lets anyone act as any user: on by default only on a loopback PUBLIC_URL.
  const loopback = isLoopbackUrl(publicUrl);
  const devLogin = parseBool(env, 'DEV_LOGIN', !production && loopback);
  if (devLogin && production) throw new ConfigError('DEV_LOGIN', 'is refused when NODE_ENV=production');
  if (devLogin && !loopback) {
    warnings.push(
      `DEV_LOGIN=1 with the public address ${publicUrl}: ANYONE who reaches this server can sign in as ANY user, admins included. ` +
        'Never do this on a site reachable from the internet; unset DEV_LOGIN.',
    );
  }

  const trustProxy = parseTrustProxy(env);
  const allowedHosts = parseAllowedHosts(env);

  const totpKeyRaw = value(env, 'TOTP_ENCRYPTION_KEY');
  const totpEncryptionKey = totpKeyRaw === undefined ? null : parseKey('TOTP_ENCRYPTION_KEY', totpKeyRaw);
  const totpEncryptionPreviousKeys = (value(env, 'TOTP_ENCRYPTION_PREVIOUS_KEYS') ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)
    .map((k) => parseKey('TOTP_ENCRYPTION_PREVIOUS_KEYS', k));

  const wsMaxConnections = parsePositiveInt(env, 'WS_MAX_CONNECTIONS', 50_000);
  const wsMaxConnectionsPerAddress = parsePositiveInt(env, 'WS_MAX_CONNECTIONS_PER_ADDRESS', 200);

  const requireAdminMfa = parseBool(env, 'REQUIRE_ADMIN_MFA', false);
  const moderationAutoHideReporters = parsePositiveInt(env, 'MODERATION_AUTO_HIDE_REPORTERS', MODERATION_LIMITS.autoHideReporters, 1000);

  // Bytes, from 1 MiB to 1 TiB.
  const uploadBytesInFlight = parseByteCount(env, 'UPLOAD_BYTES_IN_FLIGHT', DEFAULT_UPLOAD_BYTES_IN_FLIGHT, MIB, 1024 * 1024 * MIB);
  if (uploadBytesInFlight < LARGEST_UPLOAD_BYTES) {
    warnings.push(
      `UPLOAD_BYTES_IN_FLIGHT=${uploadBytesInFlight} is below ${LARGEST_UPLOAD_BYTES} bytes: the largest posts (10 images under 10 MB each) will always be refused with 503.`,
    );
  }

  const showTimezone = value(env, 'SHOW_TIMEZONE') ?? 'America/Mexico_City';
  if (!isValidTimezone(showTimezone)) {
    throw new ConfigError('SHOW_TIMEZONE', `must be an IANA time zone, got "${showTimezone}"`);
  }

  const contactEmail = value(env, 'CONTACT_EMAIL') ?? 'contacto@tribuna.mx';
  if (!EMAIL.test(contactEmail)) throw new ConfigError('CONTACT_EMAIL', `must be an e-mail, got "${contactEmail}"`);

  const push = parsePushConfig(env, production, contactEmail, warnings);

  const logLevel = value(env, 'LOG_LEVEL') ?? (nodeEnv === 'test' ? 'silent' : 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be a pino level, got "${logLevel}"`);
  }

  return {
    nodeEnv,
    port,
    // Development sign-in only ever answers this machine: nothing else needs to reach the server then.
    host: value(env, 'HOST') ?? (devLogin ? '127.0.0.1' : '0.0.0.0'),
    publicUrl,
    allowedHosts,
    databaseUrl,
    redisUrl,
    redisPrefix,
    sessionSecret,
    googleClientId: value(env, 'GOOGLE_CLIENT_ID') ?? null,
    googleClientSecret: value(env, 'GOOGLE_CLIENT_SECRET') ?? null,
    oidcIssuer,
    adminEmails,
    devLogin,
    trustProxy,
    totpEncryptionKey,
    totpEncryptionPreviousKeys,
    wsMaxConnections,
    wsMaxConnectionsPerAddress,
    warnings,
    requireAdminMfa,
    moderationAutoHideReporters,
    showTimezone,
    mediaDir: value(env, 'MEDIA_DIR') ?? './data/media',
    uploadBytesInFlight,
    logLevel,
    contactEmail,
    push,
    transcodeNiceness: parseNiceness(env, 'TRANSCODE_NICENESS', 19),
    pushNiceness: parseNiceness(env, 'PUSH_NICENESS', 19),
    social: {
      whatsapp: optionalUrl(env, 'SOCIAL_WHATSAPP_URL'),
      facebook: optionalUrl(env, 'SOCIAL_FACEBOOK_URL'),
      instagram: optionalUrl(env, 'SOCIAL_INSTAGRAM_URL'),
      tiktok: optionalUrl(env, 'SOCIAL_TIKTOK_URL'),
      x: optionalUrl(env, 'SOCIAL_X_URL'),
    },
  };
}

const VAPID_PUBLIC = /^[A-Za-z0-9_-]{87}$/;
const VAPID_PRIVATE = /^[A-Za-z0-9_-]{43}$/;

function parsePushConfig(env: Env, production: boolean, contactEmail: string, warnings: string[]): PushConfig {
  const vapidPublicKey = value(env, 'VAPID_PUBLIC_KEY') ?? null;
  const vapidPrivateKey = value(env, 'VAPID_PRIVATE_KEY') ?? null;
  if ((vapidPublicKey === null) !== (vapidPrivateKey === null)) {
    throw new ConfigError(
      vapidPublicKey === null ? 'VAPID_PUBLIC_KEY' : 'VAPID_PRIVATE_KEY',
      'must be set together with its pair (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY)',
    );
  }
  if (vapidPublicKey !== null && !VAPID_PUBLIC.test(vapidPublicKey)) {
    throw new ConfigError('VAPID_PUBLIC_KEY', 'must be a base64url P-256 public key (87 characters, e.g. from `npx web-push generate-vapid-keys`)');
  }
  if (vapidPrivateKey !== null && !VAPID_PRIVATE.test(vapidPrivateKey)) {
    throw new ConfigError('VAPID_PRIVATE_KEY', 'must be a base64url P-256 private key (43 characters)');
  }
  if (production && vapidPublicKey === null) warnings.push('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set: web push is off.');
  const subject = value(env, 'VAPID_SUBJECT') ?? `mailto:${contactEmail}`;
  if (!/^mailto:[^\s@]+@[^\s@]+$/.test(subject) && !/^https:\/\/[^\s/]+/.test(subject)) {
    throw new ConfigError('VAPID_SUBJECT', `must be a mailto: or https: URL (push services refuse others), got "${subject}"`);
  }
  const origins = (value(env, 'PUSH_TEST_ENDPOINT_ORIGINS') ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  if (origins.length > 0 && production) throw new ConfigError('PUSH_TEST_ENDPOINT_ORIGINS', 'is refused when NODE_ENV=production');
  const testEndpointOrigins = origins.map((origin) => {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError('PUSH_TEST_ENDPOINT_ORIGINS', `must be comma-separated http(s) origins, got "${origin}"`);
    }
    if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin.replace(/\/$/, '')) {
      throw new ConfigError('PUSH_TEST_ENDPOINT_ORIGINS', `must be comma-separated http(s) origins, got "${origin}"`);
    }
    return url.origin;
  });
  return { vapidPublicKey, vapidPrivateKey, keysFile: value(env, 'VAPID_KEYS_FILE') ?? './data/vapid.json', subject, testEndpointOrigins };
}

function randomSecret(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
