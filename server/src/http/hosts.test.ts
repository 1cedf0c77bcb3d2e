// The Host check (DNS rebinding): only PUBLIC_URL's host and ALLOWED_HOSTS are answered.
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfig } from '@tribuna/contracts/config';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../app.ts';
import { useListeningTestApp, useTestApp } from '../../../test/support/server/harness.ts';
import { XHR } from '../../../test/support/server/sessions.ts';
import { allowedHostRules, DEFAULT_PORTS, isAllowedHost, UNKNOWN_HOST_MESSAGE } from './hosts.ts';

/** Whether `host` passes for a server configured with these variables. */
function accepts(env: Record<string, string>, host: string | undefined): boolean {
  const config = loadConfig({ DEV_LOGIN: '0', ...env });
  return isAllowedHost(host, allowedHostRules(config), DEFAULT_PORTS[new URL(config.publicUrl).protocol]!);
}

describe('which Host headers are this site', () => {
  it("accepts PUBLIC_URL's host:port as a browser sends it, in any case, and nothing else", () => {
    const local = { PUBLIC_URL: 'http://localhost:3000' };
    for (const host of ['localhost:3000', 'LocalHost:3000', 'localhost.:3000', ' localhost:3000 ']) expect(accepts(local, host), host).toBe(true);
    for (const host of [
      'rebind.attacker.test:3000',
      'localhost',
      'localhost:80',
      'localhost:3001',
      '127.0.0.1:3000',
      '[::1]:3000',
      'localhost.attacker.test:3000',
      'evil@localhost:3000',
      'localhost:3000/x',
      'localhost:3000:3000',
      '',
      undefined,
    ]) {
      expect(accepts(local, host), String(host)).toBe(false);
    }
  });

  it("takes the scheme's default port when either side leaves it out", () => {
    const https = { PUBLIC_URL: 'https://Tribuna.Example' };
    expect(['tribuna.example', 'tribuna.example:443', 'TRIBUNA.EXAMPLE', 'tribuna.example.'].map((h) => accepts(https, h))).toEqual([true, true, true, true]);
    expect(['tribuna.example:80', 'tribuna.example:3000', 'www.tribuna.example'].map((h) => accepts(https, h))).toEqual([false, false, false]);
    const http = { PUBLIC_URL: 'http://tribuna.example' };
    expect(['tribuna.example', 'tribuna.example:80', 'tribuna.example:443'].map((h) => accepts(http, h))).toEqual([true, true, false]);
    const v6 = { PUBLIC_URL: 'http://[::1]:3000' };
    expect(['[::1]:3000', '[::1]', '::1:3000'].map((h) => accepts(v6, h))).toEqual([true, false, false]);
  });

  it('adds ALLOWED_HOSTS: a name alone at any port, a name:port at that port only', () => {
    const env = { PUBLIC_URL: 'https://tribuna.example', ALLOWED_HOSTS: 'tribuna-server,proxy.internal:8080,[fd00::2]' };
    for (const host of ['tribuna-server', 'tribuna-server:3000', 'Tribuna-Server:1', 'proxy.internal:8080', '[fd00::2]:3000', 'tribuna.example']) {
      expect(accepts(env, host), host).toBe(true);
    }
    for (const host of ['proxy.internal', 'proxy.internal:8081', 'other-server:3000', 'tribuna-server.attacker.test'])
      expect(accepts(env, host), host).toBe(false);
  });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request over a real socket to 127.0.0.1:`port`, carrying exactly these headers (Host included). */
function send(port: number, options: { method?: string; path: string; headers: Record<string, string>; body?: unknown }): Promise<RawAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { ...(payload ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** An HTTP/1.0 request without any Host header, over a raw socket: the status line's code. */
function sendWithoutHost(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1])));
    socket.on('error', reject);
  });
}

/**
 * Opens /ws with these headers (Host and Origin included): 'open', or the HTTP status of the
 * refusal once the server closed the connection (a refused upgrade must not hold its socket).
 */
function openSocket(port: number, headers: Record<string, string>): Promise<'open' | number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      if (res.socket.destroyed) resolve(res.statusCode!);
      else res.socket.once('close', () => resolve(res.statusCode!));
    });
    socket.on('error', reject);
  });
}

const PUBLIC_URL = 'http://localhost:3000';
const OWN = { host: 'localhost:3000', origin: PUBLIC_URL };
/** The page of a DNS-rebound name: it is same-origin with itself, so Host and Origin agree. */
const REBOUND = { host: 'rebind.attacker.test:3000', origin: 'http://rebind.attacker.test:3000' };
const REFUSED = { statusCode: 421, error: 'Misdirected Request', message: UNKNOWN_HOST_MESSAGE };

describe('the Host check on the real server (npm start defaults: development sign-in on)', () => {
  let app: App;
  let database: Database;
  let port: number;
  // The test configuration's ALLOWED_HOSTS is unset: only PUBLIC_URL's host is this site.
  useListeningTestApp({ PUBLIC_URL, DEV_LOGIN: undefined, NODE_ENV: 'development', ALLOWED_HOSTS: undefined }, (ready) => ({ app, database, port } = ready));

  const counts = async () => ({
    profiles: (await database.db.select().from(schema.profiles)).length,
    sessions: (await database.db.select().from(schema.sessions)).length,
  });

  it('refuses the rebinding sign-in (a foreign Host with its own Origin) with 421, no cookie, nothing written', async () => {
    expect(app.config.devLogin).toBe(true);
    const res = await send(port, { method: 'POST', path: '/api/auth/dev/login', headers: { ...REBOUND, ...XHR }, body: { displayName: 'Intrusa' } });
    expect(res.status).toBe(421);
    expect(JSON.parse(res.body)).toEqual(REFUSED);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(await counts()).toEqual({ profiles: 0, sessions: 0 });

    // The same request from the site itself signs in: the refusal was the Host alone.
    const own = await send(port, { method: 'POST', path: '/api/auth/dev/login', headers: { ...OWN, ...XHR }, body: { displayName: 'Ana' } });
    expect(own.status).toBe(200);
    expect(String(own.headers['set-cookie'])).toMatch(/^tribuna_session=/);
    expect(await counts()).toEqual({ profiles: 1, sessions: 1 });
  });

  it('refuses every route to a foreign Host, reads included (API, SPA pages, static files, 404s)', async () => {
    for (const path of ['/api/auth/dev/users', '/api/me', '/api/site', '/api/polls', '/', '/perfil', '/manifest.webmanifest', '/api/nothing-here']) {
      const res = await send(port, { path, headers: { host: REBOUND.host, accept: 'text/html' } });
      expect(res.status, path).toBe(421);
      expect(JSON.parse(res.body), path).toEqual(REFUSED);
    }
    // Nor the address the server listens on: only the name PUBLIC_URL gives.
    expect((await send(port, { path: '/api/site', headers: { host: `127.0.0.1:${port}` } })).status).toBe(421);
    expect((await send(port, { path: '/api/site', headers: { host: 'LOCALHOST:3000' } })).status).toBe(200);
    expect(await sendWithoutHost(port, '/api/site')).toBe(421);
  });

  it("sends a browser that opened a page by another loopback name to PUBLIC_URL's address; the API still answers 421", async () => {
    for (const host of [`127.0.0.1:${port}`, '[::1]:3000', 'localhost:3001']) {
      const res = await send(port, { path: '/perfil/abc?tab=posts', headers: { host, accept: 'text/html' } });
      expect(res.status, host).toBe(308);
      expect(res.headers.location, host).toBe(`${PUBLIC_URL}/perfil/abc?tab=posts`);
    }
    // A path that looks like another site's address stays a path of ours.
    expect((await send(port, { path: '//evil.example/', headers: { host: `127.0.0.1:${port}` } })).headers.location).toBe(`${PUBLIC_URL}//evil.example/`);
    for (const path of ['/api/site', '/auth/google', '/ws'])
      expect((await send(port, { path, headers: { host: `127.0.0.1:${port}` } })).status, path).toBe(421);
    expect((await send(port, { method: 'POST', path: '/api/page-views', headers: { host: `127.0.0.1:${port}`, ...XHR }, body: {} })).status).toBe(421);
    // A rebound name is never redirected: only loopback names are.
    expect((await send(port, { path: '/', headers: { host: REBOUND.host } })).status).toBe(421);
  });

  it('refuses a foreign Origin even with the right Host', async () => {
    for (const origin of ['https://evil.example', REBOUND.origin, `http://127.0.0.1:${port}`, 'http://localhost:3001', 'null']) {
      const res = await send(port, {
        method: 'POST',
        path: '/api/auth/dev/login',
        headers: { host: OWN.host, origin, ...XHR },
        body: { displayName: 'Intrusa' },
      });
      expect(res.status, origin).toBe(403);
      expect(JSON.parse(res.body).message).toBe('Cross-site request refused');
    }
    expect(await counts()).toEqual({ profiles: 0, sessions: 0 });
  });

  it('refuses the websocket upgrade to a foreign Host (421) and to a foreign Origin (403)', async () => {
    expect(await openSocket(port, REBOUND)).toBe(421);
    expect(await openSocket(port, { host: REBOUND.host })).toBe(421);
    expect(await openSocket(port, { host: OWN.host, origin: REBOUND.origin })).toBe(403);
    expect(await openSocket(port, { host: OWN.host, origin: `http://127.0.0.1:${port}` })).toBe(403);
    expect(await openSocket(port, OWN)).toBe('open');
  });

  it('answers the health probe whatever the Host (container names and addresses), and without one', async () => {
    for (const host of ['tribuna-server:3000', `127.0.0.1:${port}`, '172.18.0.3:3000', REBOUND.host]) {
      const res = await send(port, { path: '/api/health', headers: { host } });
      expect(res.status, host).toBe(200);
      expect(JSON.parse(res.body)).toMatchObject({ status: 'ok' });
    }
    expect(await sendWithoutHost(port, '/api/health')).toBe(200);
  });
});

describe('the Host check with an https PUBLIC_URL and ALLOWED_HOSTS', () => {
  let app: App;
  useTestApp({ PUBLIC_URL: 'https://tribuna.example', ALLOWED_HOSTS: 'tribuna-server' }, (ready) => ({ app } = ready));

  const site = (host: string) => app.inject({ method: 'GET', url: '/api/site', headers: { host } });

  it("answers PUBLIC_URL's host (with or without :443) and the names of ALLOWED_HOSTS at any port", async () => {
    for (const host of ['tribuna.example', 'tribuna.example:443', 'tribuna-server:3000', 'tribuna-server'])
      expect((await site(host)).statusCode, host).toBe(200);
    for (const host of ['tribuna.example:80', 'localhost:80', 'attacker.test']) expect((await site(host)).statusCode, host).toBe(421);
  });

  it('documents the 421 on every route but the health probe', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { host: 'tribuna.example' } });
    const doc = res.json<{ paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }>();
    expect(doc.paths['/api/site']!.get!.responses).toHaveProperty('421');
    expect(doc.paths['/api/auth/dev/login']).toBeUndefined(); // DEV_LOGIN is off on a public address
    expect(doc.paths['/api/me']!.delete!.responses).toHaveProperty('421');
    expect(doc.paths['/api/health']!.get!.responses).not.toHaveProperty('421');
  });
});
