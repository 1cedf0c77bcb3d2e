import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { EndpointPolicy, isPublicAddress, isPushServiceHost, publicOnlyLookup, type ResolveAll } from './endpointPolicy.ts';

/** A resolver answering `addresses` for every name (the system's is asked in the tests of real names below). */
const resolvingTo =
  (...addresses: string[]): ResolveAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('the push endpoint policy (SSRF)', () => {
  it('tells public addresses from private, loopback, link-local and reserved ones, IPv4 inside IPv6 included', () => {
    for (const address of ['142.250.1.95', '17.57.146.20', '2a00:1450:4001:82b::200a', '2607:f8b0:4005:80c::200a', '8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '10.0.0.8',
      '172.16.5.4',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fe80::1%eth0',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:a00:1::1',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('matches push service hosts exactly, or as subdomains of entries starting with a dot', () => {
    expect(isPushServiceHost('fcm.googleapis.com')).toBe(true);
    expect(isPushServiceHost('FCM.googleapis.com.')).toBe(true);
    expect(isPushServiceHost('web.push.apple.com')).toBe(true);
    expect(isPushServiceHost('wns2-by3p.notify.windows.com')).toBe(true);
    expect(isPushServiceHost('push.apple.com')).toBe(false);
    expect(isPushServiceHost('evilpush.apple.com')).toBe(false);
    expect(isPushServiceHost('fcm.googleapis.com.evil.example')).toBe(false);
    expect(isPushServiceHost('xfcm.googleapis.com')).toBe(false);
    expect(isPushServiceHost('localhost')).toBe(false);
  });

  it('accepts https on a push service whose every address is public', async () => {
    const policy = new EndpointPolicy({ testEndpointOrigins: [], resolve: resolvingTo('142.250.1.95', '2a00:1450:4001:82b::200a') });
    const verdict = await policy.check('https://fcm.googleapis.com/fcm/send/abc:def');
    expect(verdict).toMatchObject({ ok: true, testOrigin: false });
  });

  it('refuses http, credentials, other ports, unknown hosts and IP literals without resolving anything', async () => {
    const asked: string[] = [];
    const policy = new EndpointPolicy({
      testEndpointOrigins: [],
      resolve: async (host) => {
        asked.push(host);
        return [{ address: '142.250.1.95', family: 4 }];
      },
    });
    expect(await policy.check('http://fcm.googleapis.com/fcm/send/abc')).toEqual({ ok: false, reason: 'scheme' });
    expect(await policy.check('https://user:pw@fcm.googleapis.com/fcm/send/abc')).toEqual({ ok: false, reason: 'credentials' });
    expect(await policy.check('https://fcm.googleapis.com:8443/fcm/send/abc')).toEqual({ ok: false, reason: 'port' });
    expect(await policy.check('https://evil.example.com/push')).toEqual({ ok: false, reason: 'host' });
    expect(await policy.check('https://127.0.0.1/push')).toEqual({ ok: false, reason: 'host' });
    expect(await policy.check('https://[::1]/push')).toEqual({ ok: false, reason: 'host' });
    expect(await policy.check('https://169.254.169.254/latest/meta-data')).toEqual({ ok: false, reason: 'host' });
    expect(await policy.check('not a url')).toEqual({ ok: false, reason: 'malformed' });
    expect(asked).toEqual([]);
  });

  it.each([['127.0.0.1'], ['10.1.2.3'], ['169.254.169.254'], ['::1'], ['::ffff:192.168.0.1']])(
    'refuses a push service host resolving to %s (even among public addresses)',
    async (address) => {
      const policy = new EndpointPolicy({ testEndpointOrigins: [], resolve: resolvingTo('142.250.1.95', address) });
      expect(await policy.check('https://fcm.googleapis.com/fcm/send/abc')).toEqual({ ok: false, reason: 'private-address' });
    },
  );

  it('refuses a host that does not resolve', async () => {
    const policy = new EndpointPolicy({
      testEndpointOrigins: [],
      resolve: async () => {
        throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
      },
    });
    expect(await policy.check('https://updates.push.services.mozilla.com/wpush/v2/abc')).toEqual({ ok: false, reason: 'unresolved' });
  });

  it('refuses a host whose resolution does not answer in time', async () => {
    const policy = new EndpointPolicy({ testEndpointOrigins: [], resolve: () => new Promise(() => undefined), resolveTimeoutMs: 20 });
    expect(await policy.check('https://fcm.googleapis.com/fcm/send/abc')).toEqual({ ok: false, reason: 'unresolved' });
  });

  it('resolves with the system resolver: a listed name on loopback (localhost) is refused', async () => {
    const policy = new EndpointPolicy({ testEndpointOrigins: [], hosts: ['localhost'] });
    expect(await policy.check('https://localhost/push/abc')).toEqual({ ok: false, reason: 'private-address' });
  });

  it('accepts a configured test origin whatever its scheme and address, and only that exact origin', async () => {
    const policy = new EndpointPolicy({ testEndpointOrigins: ['http://127.0.0.1:4100'], resolve: resolvingTo('127.0.0.1') });
    expect(await policy.check('http://127.0.0.1:4100/push/abc')).toMatchObject({ ok: true, testOrigin: true });
    expect(policy.isTestOrigin('http://127.0.0.1:4100/push/abc')).toBe(true);
    expect(await policy.check('http://127.0.0.1:4101/push/abc')).toEqual({ ok: false, reason: 'scheme' });
    expect(await policy.check('https://127.0.0.1:4100/push/abc')).toEqual({ ok: false, reason: 'port' });
    expect(await policy.check('http://localhost:4100/push/abc')).toEqual({ ok: false, reason: 'scheme' });
    expect(policy.isTestOrigin('http://127.0.0.1:4101/push/abc')).toBe(false);
    // Without the setting, the same endpoint is refused.
    expect(await new EndpointPolicy({ testEndpointOrigins: [] }).check('http://127.0.0.1:4100/push/abc')).toEqual({ ok: false, reason: 'scheme' });
  });

  it("publicOnlyLookup fails a connection to a name resolving to loopback, at the connection's own resolution", async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const attempt = (lookup?: ReturnType<typeof publicOnlyLookup>) =>
        new Promise<string>((resolve) => {
          const request = http.get({ host: 'localhost', port, path: '/', family: 4, agent: false, ...(lookup ? { lookup } : {}) }, (res) => {
            res.resume();
            resolve(String(res.statusCode));
          });
          request.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
        });
      expect(await attempt()).toBe('200');
      expect(await attempt(publicOnlyLookup())).toBe('EPRIVATEADDRESS');
      // A public answer passes through, in the shape the caller asked for.
      const fakePublic = ((_host: string, _options: unknown, callback: (err: null, all: dns.LookupAddress[]) => void) =>
        callback(null, [{ address: '142.250.1.95', family: 4 }])) as unknown as typeof dns.lookup;
      const single = await new Promise<[string, number]>((resolve, reject) =>
        publicOnlyLookup(fakePublic)('fcm.googleapis.com', { family: 4 }, (err, address, family) =>
          err ? reject(err) : resolve([address as string, family!]),
        ),
      );
      expect(single).toEqual(['142.250.1.95', 4]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
