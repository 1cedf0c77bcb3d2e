import fc from 'fast-check';
import type { CatalogueRoute, JsonSchema } from './routes.ts';
import { deepNesting, junkJson, nastyString, toJsonText, validish, type SchemaArbitraryOptions } from './schemaArbitrary.ts';

/** One generated request, as it goes on the wire. */
export interface FuzzRequest {
  method: string;
  /** Path and query string as written on the request line (only URL-safe ASCII). */
  url: string;
  /** Header values use the bytes HTTP allows (tab, printable ASCII, obs-text as latin1 characters). */
  headers: Record<string, string>;
  body?: string;
}

/** What the fuzzer knows about the app and the rows of the current test. */
export interface FuzzContext extends SchemaArbitraryOptions {
  /** Session cookies (`tribuna_session=<token>`) of every kind of caller: fan, admin, suspended… */
  sessionCookies: readonly string[];
  /** Cookies the app itself handed out (sign-in flow state, nonce, PKCE verifier). */
  harvestedCookies: readonly string[];
  sessionCookieName: string;
  /** PUBLIC_URL's origin (a same-site Origin). */
  ownOrigin: string;
}

/** Origins that are never this site's, whatever its Host. */
export const FOREIGN_ORIGINS = (ownOrigin: string) => ['https://evil.example', 'null', `${ownOrigin}.evil.example`, 'file://'];

const PERCENT_JUNK = [
  '%',
  '%zz',
  '%00',
  '%2F',
  '%2e%2e',
  '%2e%2e%2f%2e%2e%2fpackage.json',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%u0041',
  '%%',
  '%0A',
  '%0D%0A',
  '..',
  '.',
  '%20',
  '%E2%80%AE',
  '%EF%BF%BF',
  '%F0%9F%99%82',
] as const;

/** Percent-encodes every byte but unreserved characters; lone surrogates go out as their WTF-8 bytes. */
function encodeComponent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (/[A-Za-z0-9\-._~]/.test(char)) {
      out += char;
      continue;
    }
    const code = text.codePointAt(i)!;
    if (code > 0xffff) i++;
    for (const byte of wtf8(code)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function wtf8(code: number): number[] {
  if (code < 0x80) return [code];
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 0x3f)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  return [0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
}

/** What HTTP lets a header value carry: tab, printable ASCII and obs-text (bytes 0x80–0xFF as latin1). */
const headerChar = fc
  .oneof(
    { weight: 20, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 1, arbitrary: fc.constant(0x09) },
    { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
  )
  .map((code) => String.fromCharCode(code));
const headerValue = (maxLength = 60) => fc.string({ unit: headerChar, maxLength });
const longHeaderValue = fc.constantFrom(1_000, 8_000).map((length) => 'a'.repeat(length));
/** Headers the fuzzer sets on purpose, or that frame the request: random ones never take their names. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'keep-alive',
  'content-type',
  'cookie',
  'origin',
  'x-requested-with',
]);
const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,24}$/).filter((name) => !RESERVED_HEADERS.has(name));

/** A value for one path parameter, already encoded for the request line. */
function pathSegment(schema: JsonSchema | undefined, context: FuzzContext): fc.Arbitrary<string> {
  const options: fc.MaybeWeightedArbitrary<string>[] = [
    { weight: 3, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.constantFrom(...PERCENT_JUNK) },
    { weight: 2, arbitrary: nastyString.map(encodeComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }).map(encodeComponent) },
    { weight: 1, arbitrary: fc.constantFrom(101, 2_000, 10_000).map((length) => 'a'.repeat(length)) },
    { weight: 1, arbitrary: fc.uuid().map((id) => `${id}${'a'.repeat(80)}`) },
    { weight: 1, arbitrary: fc.constantFrom('00000000-0000-0000-0000-000000000000', '1', '-1', 'NaN', 'null', 'me', 'index.html', 'sw.js') },
  ];
  if (context.uuids.length > 0) options.push({ weight: 6, arbitrary: fc.constantFrom(...context.uuids) });
  if (schema)
    options.push({ weight: 2, arbitrary: validish(schema, context).map((value) => encodeComponent(typeof value === 'string' ? value : toJsonText(value))) });
  return fc.oneof(...options);
}

/** The rest of a path for a wildcard (`/*`): file names, traversal attempts, nested junk. */
const wildcardPath = fc.oneof(
  fc.constantFrom('', 'index.html', 'sw.js', 'manifest.webmanifest', 'assets/', '.env', '.git/config', 'terminos', 'api', 'favicon.ico', 'static/index.html'),
  fc
    .array(fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/), fc.constantFrom(...PERCENT_JUNK), nastyString.map(encodeComponent)), {
      minLength: 1,
      maxLength: 4,
    })
    .map((segments) => segments.join('/')),
);

/** A fixed segment, sometimes with one character percent-encoded (`api` → `%61pi`): the router decodes it. */
function staticSegment(segment: string): fc.Arbitrary<string> {
  if (segment === '') return fc.constant(segment);
  const encoded = fc.tuple(fc.nat({ max: segment.length - 1 }), fc.boolean()).map(([index, lower]) => {
    const hex = segment.charCodeAt(index).toString(16).padStart(2, '0');
    return `${segment.slice(0, index)}%${lower ? hex : hex.toUpperCase()}${segment.slice(index + 1)}`;
  });
  return fc.oneof({ weight: 12, arbitrary: fc.constant(segment) }, { weight: 1, arbitrary: encoded });
}

/** The request line's path for a registered pattern (`:name` params, a trailing `*`). */
function pathFor(route: CatalogueRoute, context: FuzzContext): fc.Arbitrary<string> {
  const paramsSchema = (route.schema?.params as { properties?: Record<string, JsonSchema> } | undefined)?.properties;
  const parts = route.url.split('/').map((segment): fc.Arbitrary<string> => {
    if (segment.startsWith(':')) return pathSegment(paramsSchema?.[segment.slice(1)], context);
    if (segment === '*') return wildcardPath;
    if (segment.endsWith('*')) return wildcardPath.map((rest) => `${segment.slice(0, -1)}${rest}`);
    return staticSegment(segment);
  });
  return fc.tuple(...parts).map((segments) => segments.join('/'));
}

/** A query string (with its `?`), valid-ish from the route's schema or plain junk. */
function queryFor(route: CatalogueRoute, context: FuzzContext): fc.Arbitrary<string> {
  const schema = route.schema?.querystring;
  const pair = (key: fc.Arbitrary<string>, value: fc.Arbitrary<string>) => fc.tuple(key, value).map(([k, v]) => `${k}=${v}`);
  const junkPairs = fc.array(
    pair(
      fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), fc.constantFrom('__proto__', 'constructor[prototype][x]', 'a[b][c]', '', '%zz')),
      fc.oneof(nastyString.map(encodeComponent), fc.constantFrom(...PERCENT_JUNK)),
    ),
    { maxLength: 3 },
  );
  const options: fc.Arbitrary<string[]>[] = [fc.constant([]), junkPairs];
  const properties = (schema as { properties?: Record<string, JsonSchema> } | undefined)?.properties;
  if (schema && properties) {
    options.push(
      fc
        .tuple(validish(schema, context), junkPairs)
        .map(([value, junk]) => [
          ...Object.entries(typeof value === 'object' && value !== null ? value : {}).map(
            ([k, v]) => `${encodeComponent(k)}=${encodeComponent(typeof v === 'string' ? v : toJsonText(v))}`,
          ),
          ...junk,
        ]),
      // The same key twice: parsed as an array.
      fc
        .tuple(fc.constantFrom(...Object.keys(properties)), fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
        .map(([key, a, b]) => [`${key}=${encodeComponent(a)}`, `${key}=${encodeComponent(b)}`]),
    );
  }
  return fc.oneof(...options).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));
}

interface Payload {
  body?: string;
  contentType?: string;
}

const JSON_TYPE = 'application/json';
const WRONG_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/json; charset=utf-16le',
  'application/json; charset=latin1',
  'application/JSON',
  'application/json;',
  'application/vnd.api+json',
  'application/jsonx',
  'text/html',
  '',
  ';',
  'application/octet-stream',
] as const;

const PART_NAMES = ['content', 'groupId', 'visibility', 'alt', 'parentCommentId', 'images', 'image', 'file', '', 'content[]', '__proto__'] as const;
const FILE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'text/html', 'image/svg+xml', 'application/x-msdownload', '', 'image/'] as const;
/** Bytes that look like images, scripts or nothing (a body travels as text: ASCII and UTF-8 only). */
const FILE_BODIES = fc.oneof(
  fc.constantFrom(
    'GIF89a/*\x00*/=alert(1)//',
    '\x89PNG\r\n\x1a\n',
    'RIFF\x00\x00\x00\x00WEBPVP8 ',
    '<svg onload=alert(1)>',
    'MZ\x90\x00',
    '<html><script>alert(1)</script>',
    '',
  ),
  nastyString,
);

/** Filenames from the plain to the hostile: huge, traversing, control characters, RFC 5987 forms. */
const FILENAMES = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'foto.png',
      'foto.PNG',
      'foto.png.exe',
      '.png',
      '..',
      '../../etc/passwd',
      'C:\\Windows\\win.ini',
      'a/b/c.jpg',
      'foto\u0000.png',
      'foto%00.png',
      'CON',
      'foto .jpg ',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(256, 1_024, 10_000, 60_000).map((length) => `${'a'.repeat(length)}.png`) },
);

/** Part header blocks the parser must survive: missing or odd dispositions, junk lines, oversized ones, many. */
const ODD_PART_HEADERS = fc.oneof(
  fc.constantFrom(
    '',
    'Content-Type: image/png',
    'Content-Disposition: attachment; name="image"',
    'Content-Disposition: form-data',
    'Content-Disposition: form-data; name=',
    'Content-Disposition: form-data; name="image"; filename*=UTF-8\'\'%E2%82%AC%20rates.png',
    'Content-Disposition: form-data; name="image"; filename="a.png"; filename="b.png"',
    'Content-Disposition: form-data; name="content"\r\nContent-Transfer-Encoding: base64',
    'no colon on this line',
    ': no name',
    'Content-Disposition: form-data; name="content"\r\n\tfolded: header',
  ),
  fc.constantFrom(1_000, 20_000).map((length) => `Content-Disposition: form-data; name="${'n'.repeat(length)}"`),
  fc
    .integer({ min: 21, max: 60 })
    .map((count) => ['Content-Disposition: form-data; name="content"', ...Array.from({ length: count }, (_, i) => `X-Extra-${i}: ${i}`)].join('\r\n')),
);

/** A multipart/form-data body: random fields and files, and broken framing (upload routes). */
function multipartFor(context: FuzzContext): fc.Arbitrary<Payload> {
  const part = fc.oneof(
    fc
      .record({
        name: fc.oneof(fc.constantFrom(...PART_NAMES), nastyString),
        value: fc.oneof(nastyString, validish({ type: 'string', format: 'uuid' }, context).map(String)),
      })
      .map(({ name, value }) => `Content-Disposition: form-data; name="${name.replace(/["\r\n]/g, '')}"\r\n\r\n${value}`),
    fc
      .record({ name: fc.constantFrom(...PART_NAMES), filename: FILENAMES, type: fc.constantFrom(...FILE_TYPES), body: FILE_BODIES })
      .map(
        ({ name, filename, type, body }) =>
          `Content-Disposition: form-data; name="${name}"; filename="${filename.replace(/["\r\n]/g, '')}"\r\nContent-Type: ${type}\r\n\r\n${body}`,
      ),
  );
  const oddPart = fc.tuple(ODD_PART_HEADERS, fc.oneof(nastyString, FILE_BODIES)).map(([headers, body]) => `${headers}\r\n\r\n${body}`);
  const boundary = 'fuzzboundary';
  const wellFramed = fc.array(part, { maxLength: 14 }).map((parts): Payload => ({
    body: `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`,
    contentType: `multipart/form-data; boundary=${boundary}`,
  }));
  const broken = fc
    .tuple(
      fc.array(part, { maxLength: 3 }),
      fc.constantFrom('', '--', `--${boundary}`, `--${boundary}\r\nContent-Disposition: form-data`, '\r\n\r\n'),
      fc.constantFrom(`multipart/form-data; boundary=${boundary}`, 'multipart/form-data', 'multipart/form-data; boundary='),
    )
    .map(([parts, tail, contentType]): Payload => ({ body: `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}${tail}`, contentType }));
  // Parts with odd headers among ordinary ones, a preamble and an epilogue.
  const oddlyFramed = fc
    .tuple(
      fc.array(fc.oneof(part, oddPart), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('', 'preamble\r\n', '\r\n'),
      fc.constantFrom('', 'epilogue', '\r\n--fuzzboundary--\r\n'),
    )
    .map(([parts, preamble, epilogue]): Payload => ({
      body: `${preamble}${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n${epilogue}`,
      contentType: `multipart/form-data; boundary=${boundary}`,
    }));
  // A well-framed body cut anywhere (mid-header, mid-file, inside a boundary).
  const truncated = fc.tuple(wellFramed, fc.double({ min: 0, max: 1, noNaN: true })).map(([payload, at]): Payload => ({
    ...payload,
    body: payload.body!.slice(0, Math.floor(payload.body!.length * at)),
  }));
  // The right body under a wrong or mangled multipart type.
  const mistyped = fc
    .tuple(
      wellFramed,
      fc.constantFrom(
        'multipart/form-data; boundary=otherboundary',
        'multipart/form-data; boundary="fuzzboundary"',
        'multipart/form-data; boundary=fuzzboundary; boundary=x',
        `multipart/form-data; boundary=${'b'.repeat(71)}`,
        `multipart/form-data; boundary=${'b'.repeat(5_000)}`,
        'multipart/form-data; boundary=fuzz boundary',
        'multipart/form-data; charset=utf-16; boundary=fuzzboundary',
        'multipart/mixed; boundary=fuzzboundary',
        'Multipart/Form-Data; Boundary=fuzzboundary',
        'multipart/form-data;boundary=fuzzboundary;',
        'application/json',
        'image/png',
        'text/plain; boundary=fuzzboundary',
      ),
    )
    .map(([payload, contentType]): Payload => ({ body: payload.body, contentType }));
  // Many small fields, or one file past any upload limit.
  const oversized = fc.oneof(
    fc.integer({ min: 50, max: 2_000 }).map((count): Payload => ({
      body: `${Array.from({ length: count }, (_, i) => `--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${i}\r\n`).join('')}--${boundary}--\r\n`,
      contentType: `multipart/form-data; boundary=${boundary}`,
    })),
    fc.constantFrom(200_000, 11 * 1024 * 1024).map((size): Payload => ({
      body: `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n${'A'.repeat(size)}\r\n--${boundary}--\r\n`,
      contentType: `multipart/form-data; boundary=${boundary}`,
    })),
  );
  return fc.oneof(
    { weight: 6, arbitrary: wellFramed },
    { weight: 2, arbitrary: broken },
    { weight: 2, arbitrary: oddlyFramed },
    { weight: 2, arbitrary: truncated },
    { weight: 2, arbitrary: mistyped },
    { weight: 1, arbitrary: oversized },
  );
}

/** The body: valid-ish JSON from the schema, junk JSON, non-JSON under a JSON type, wrong types, none. */
function payloadFor(route: CatalogueRoute, context: FuzzContext): fc.Arbitrary<Payload> {
  if (route.schema?.consumes?.includes('multipart/form-data')) {
    return fc.oneof({ weight: 8, arbitrary: multipartFor(context) }, { weight: 2, arbitrary: jsonPayloadFor(route, context) });
  }
  return jsonPayloadFor(route, context);
}

function jsonPayloadFor(route: CatalogueRoute, context: FuzzContext): fc.Arbitrary<Payload> {
  const schema = route.schema?.body;
  const json = schema ? validish(schema, context) : junkJson;
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant<Payload>({}) },
    { weight: 1, arbitrary: fc.constant<Payload>({ contentType: JSON_TYPE }) },
    { weight: 10, arbitrary: json.map((value): Payload => ({ body: toJsonText(value), contentType: JSON_TYPE })) },
    { weight: 2, arbitrary: junkJson.map((value): Payload => ({ body: toJsonText(value), contentType: JSON_TYPE })) },
    { weight: 1, arbitrary: deepNesting.map((body): Payload => ({ body, contentType: JSON_TYPE })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('{"__proto__":{"role":"admin"}}', '{"constructor":{"prototype":{"role":"admin"}}}', '{"a":1,"a":2}')
        .map((body): Payload => ({ body, contentType: JSON_TYPE })),
    },
    {
      weight: 2,
      arbitrary: fc
        .oneof(fc.constantFrom('{', 'undefined', 'NaN', "{'a':1}", '{"a":1}garbage', '\u0000', '""', '1e999', ' ', '\ufeff{}'), nastyString)
        .map((body): Payload => ({ body, contentType: JSON_TYPE })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...WRONG_CONTENT_TYPES), fc.oneof(json.map(toJsonText), nastyString))
        .map(([contentType, body]): Payload => ({ body, contentType })),
    },
    { weight: 1, arbitrary: json.map((value): Payload => ({ body: toJsonText(value) })) },
    // Beyond the 1 MiB body limit.
    { weight: 1, arbitrary: fc.constant<Payload>({ body: `{"a":"${'x'.repeat(1_100_000)}"}`, contentType: JSON_TYPE }) },
  );
}

/** The session cookie of any kind of caller, garbage ones, the app's own flow cookies, or none. */
function cookieFor(context: FuzzContext): fc.Arbitrary<string | undefined> {
  const name = context.sessionCookieName;
  const options: fc.MaybeWeightedArbitrary<string | undefined>[] = [
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: headerValue(40).map((token) => `${name}=${token}`) },
    { weight: 1, arbitrary: fc.constantFrom(`${name}=`, `${name}=%`, `${name}=a; ${name}=b`, '=;;=', ';', `${name}=${'a'.repeat(5_000)}`) },
    { weight: 1, arbitrary: headerValue(80) },
  ];
  if (context.sessionCookies.length > 0) options.push({ weight: 10, arbitrary: fc.constantFrom(...context.sessionCookies) });
  if (context.harvestedCookies.length > 0) {
    options.push({
      weight: 2,
      arbitrary: fc
        .tuple(fc.subarray([...context.harvestedCookies], { minLength: 1 }), fc.option(fc.constantFrom(...context.sessionCookies)))
        .map(([cookies, session]) => [...cookies, ...(session ? [session] : [])].join('; ')),
    });
  }
  return fc.oneof(...options);
}

const optional = <T>(arbitrary: fc.Arbitrary<T>, weight = 1) => fc.option(arbitrary, { nil: undefined, freq: weight + 1 });

/** Headers every request may carry, from the ones the app reads to random noise. */
function headersFor(route: CatalogueRoute, context: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const headerSchema = route.schema?.headers as { properties?: Record<string, JsonSchema> } | undefined;
  const declared = Object.entries(headerSchema?.properties ?? {}).map(([name, schema]) =>
    fc.option(
      validish(schema, context).map(
        (value) => [name.toLowerCase(), (typeof value === 'string' ? value : toJsonText(value)).replace(/[^\t\x20-\x7e\x80-\xff]/g, '?')] as const,
      ),
      { nil: undefined },
    ),
  );
  return fc
    .record({
      cookie: cookieFor(context),
      'x-requested-with': fc.oneof(
        { weight: 6, arbitrary: fc.constant('tribuna') },
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: headerValue(20) },
      ),
      origin: fc.oneof(
        { weight: 4, arbitrary: fc.constant(undefined) },
        { weight: 3, arbitrary: fc.constant(context.ownOrigin) },
        { weight: 2, arbitrary: fc.constantFrom(...FOREIGN_ORIGINS(context.ownOrigin), 'http://localhost') },
        { weight: 1, arbitrary: headerValue(40) },
      ),
      'idempotency-key': optional(fc.oneof(fc.uuid(), headerValue(80), longHeaderValue, fc.constant(''))),
      'x-forwarded-for': optional(
        fc.oneof(headerValue(40), fc.constantFrom('1.2.3.4', '1.2.3.4, 5.6.7.8', '::1', '999.999.999.999', 'unknown', ', , ,'), longHeaderValue),
      ),
      accept: optional(fc.oneof(fc.constantFrom('application/json', 'text/html', '*/*', 'text/html,application/xhtml+xml', 'image/png'), headerValue(30))),
      'user-agent': optional(fc.oneof(headerValue(60), longHeaderValue)),
      'accept-encoding': optional(fc.constantFrom('gzip', 'br', 'identity', '*;q=0', 'garbage')),
      'if-none-match': optional(headerValue(30)),
      range: optional(fc.constantFrom('bytes=0-0', 'bytes=-1', 'bytes=99999999999-', 'bytes=5-1', 'junk')),
      extra: fc.array(fc.tuple(headerName, fc.oneof(headerValue(), longHeaderValue)), { maxLength: 3 }),
      declared: fc.tuple(...declared),
    })
    .map(({ extra, declared: declaredValues, ...named }) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of extra) headers[name] = value;
      for (const entry of declaredValues) if (entry) headers[entry[0]] = entry[1];
      for (const [name, value] of Object.entries(named)) if (value !== undefined) headers[name] = value;
      return headers;
    });
}

/** Random and malformed requests aimed at one route. */
export function requestFor(route: CatalogueRoute, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const sendsBody = !['GET', 'HEAD'].includes(route.method);
  return fc
    .record({
      path: pathFor(route, context),
      query: queryFor(route, context),
      headers: headersFor(route, context),
      payload: sendsBody
        ? payloadFor(route, context)
        : fc.oneof({ weight: 9, arbitrary: fc.constant<Payload>({}) }, { weight: 1, arbitrary: payloadFor(route, context) }),
    })
    .map(({ path, query, headers, payload }) => {
      const request: FuzzRequest = { method: route.method, url: `${path}${query}`, headers: { ...headers } };
      if (payload.contentType !== undefined) request.headers['content-type'] = payload.contentType;
      if (payload.body !== undefined) request.body = payload.body;
      return request;
    });
}
