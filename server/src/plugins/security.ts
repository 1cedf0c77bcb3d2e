import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { errorBody } from '../http/errors.ts';

/**
 * Powerful features the app never uses, denied to the page and to anything it could embed.
 * Clipboard writes (copy link, copy TOTP key) and the Web Share sheet keep their default
 * allowlist, 'self'. Only names Chromium recognizes: an unknown one is a console warning.
 */
const DENIED_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'clipboard-read',
  'display-capture',
  'encrypted-media',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'local-fonts',
  'magnetometer',
  'microphone',
  'midi',
  'otp-credentials',
  'payment',
  'picture-in-picture',
  'publickey-credentials-create',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'window-management',
  'xr-spatial-tracking',
] as const;

/** Features the page itself uses, and only it (nothing it could embed): a video post's full-screen view. */
const SELF_FEATURES = ['fullscreen'] as const;

const PERMISSIONS_POLICY = [...DENIED_FEATURES.map((feature) => `${feature}=()`), ...SELF_FEATURES.map((feature) => `${feature}=(self)`)].join(', ');

/**
 * Images other sites may embed: uploads (contestant photos, avatars) and the app icons, which are
 * the og:image of shared polls. Everything else is same-origin only.
 */
const CROSS_ORIGIN_RESOURCES = /^\/(?:media\/|icon[\w-]*\.(?:png|svg)$|apple-touch-icon\.png$)/;

/** The Content-Security-Policy directives for a site served at `publicUrl`. */
function contentSecurityPolicyDirectives(publicUrl: string): Record<string, string[]> {
  const url = new URL(publicUrl);
  const https = url.protocol === 'https:';
  return {
    'default-src': ["'self'"],
    // No inline scripts or event handler attributes: the theme bootstrap is web/public/theme-init.js.
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    // Only the built stylesheets. React's style props go through the CSSOM, which CSP allows.
    'style-src': ["'self'"],
    // Google avatars and contestant photos may be https URLs of other hosts; data: carries the TOTP QR
    // code; blob: URLs (previews of a picked file) can only be minted by the page itself.
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    // Video posts from /media; blob: URLs are the composer's preview of a picked clip.
    'media-src': ["'self'", 'blob:'],
    // 'self' covers same-host websockets in CSP3 browsers; older Safari needs the ws(s) origin named.
    'connect-src': ["'self'", `${https ? 'wss' : 'ws'}://${url.host}`],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/** Helmet's part of the headers: CSP, nosniff, referrer policy, frame denial, COOP, and HSTS over https. */
function helmetOptions(publicUrl: string) {
  const https = new URL(publicUrl).protocol === 'https:';
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicyDirectives(publicUrl) },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // require-corp would block the https avatars and photos of other hosts; nothing needs cross-origin isolation.
    crossOriginEmbedderPolicy: false,
    // Set per path by setPolicyHeaders (same-origin, or cross-origin for shareable images).
    crossOriginResourcePolicy: false,
    // Over plain http (development, tests) HSTS would be ignored at best, and pin localhost at worst.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  } as const;
}

/**
 * The headers helmet writes for these options, computed once: they depend only on PUBLIC_URL.
 * (@fastify/helmet would build helmet's middleware, CSP parsing included, again on every request.)
 */
function securityHeaders(publicUrl: string): Record<string, string> {
  const headers: Record<string, string> = { 'permissions-policy': PERMISSIONS_POLICY };
  const collector = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => {},
  };
  helmet(helmetOptions(publicUrl))({} as IncomingMessage, collector as unknown as ServerResponse, () => {});
  return headers;
}

/**
 * Responses no browser renders as a page: JSON API answers (not the HTML of /api/docs) and the
 * build's scripts and styles (/assets/ and the theme bootstrap; never a document nor a worker:
 * sw.js keeps the page's set).
 */
const COMPACT_HEADER_PATHS = /^\/(?:api\/(?!docs(?:\/|$))|assets\/|theme-init\.js$)/;

/**
 * The headers of JSON API answers and static assets: a page's CSP and Permissions-Policy (a
 * kilobyte) mean nothing on a response no browser renders, and every vote, poll read and script
 * of a phone's first load would carry them. Nothing may
 * load from or frame such a response; the features a page could ask for are denied all the same.
 */
function apiSecurityHeaders(documentHeaders: Record<string, string>): Record<string, string> {
  const hsts = documentHeaders['strict-transport-security'];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), fullscreen=()',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

/** Uploaded images: the compact set, embeddable by other sites (shared og:image), sandboxed if opened as a document. */
const MEDIA_PATHS = /^\/media\//;

/** Both header sets for a site at `publicUrl`, picked per request by setSecurityHeaders. */
function headerSets(publicUrl: string) {
  const document = securityHeaders(publicUrl);
  const api = apiSecurityHeaders(document);
  const media = { ...api, 'content-security-policy': "default-src 'none'; sandbox", 'cross-origin-resource-policy': 'cross-origin' };
  return { document, api, media };
}

/** Every security header of a response to `request`: the API's or a page's, and CORP by path. */
function setSecurityHeaders(sets: ReturnType<typeof headerSets>, request: FastifyRequest, reply: FastifyReply): void {
  const path = request.url.split('?')[0] ?? '/';
  if (COMPACT_HEADER_PATHS.test(path)) {
    reply.headers(sets.api);
    return;
  }
  if (MEDIA_PATHS.test(path)) {
    reply.headers(sets.media);
    return;
  }
  reply.headers(sets.document);
  reply.header('cross-origin-resource-policy', CROSS_ORIGIN_RESOURCES.test(path) ? 'cross-origin' : 'same-origin');
}

/**
 * Fastify's `frameworkErrors`: a malformed URL (bad percent-encoding, a parameter past
 * maxParamLength) is answered before any hook runs, so it gets the same headers here, and the
 * usual ErrorBody.
 */
export function frameworkErrorHandler(publicUrl: string) {
  const sets = headerSets(publicUrl);
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    setSecurityHeaders(sets, request, reply);
    request.log.info({ code: error.code }, 'malformed request');
    void reply.code(400).send(errorBody(400, error.message));
  };
}

/** Security headers on every response: API, static files, SPA index, errors, 404s. */
export default fp(
  async (app) => {
    const sets = headerSets(app.config.publicUrl);
    app.addHook('onRequest', (request, reply, done) => {
      setSecurityHeaders(sets, request, reply);
      done();
    });
  },
  { name: 'security', dependencies: ['config'] },
);
