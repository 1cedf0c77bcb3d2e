// Whether a request comes from this machine (development sign-in answers nothing else).
import { describe, expect, it } from 'vitest';
import { isLocalRequest, isLoopbackAddress, type PeerInfo } from './loopback.ts';

describe('isLoopbackAddress', () => {
  it('knows every spelling of this machine, and nothing else', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '127.255.255.254', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.3.2.1']) {
      expect(isLoopbackAddress(address), address).toBe(true);
    }
    for (const address of [
      '192.0.2.2',
      '10.0.0.1',
      '0.0.0.0',
      '128.0.0.1',
      '::',
      '::2',
      'fd00::2',
      '::ffff:10.0.0.1',
      '1::1',
      'localhost',
      'unknown',
      '',
      undefined,
    ]) {
      expect(isLoopbackAddress(address), String(address)).toBe(false);
    }
  });
});

describe('isLocalRequest', () => {
  const request = (remoteAddress: string | undefined, ip: string, headers: PeerInfo['headers'] = {}): PeerInfo => ({ socket: { remoteAddress }, ip, headers });

  it('without TRUST_PROXY: a loopback peer that relays nobody', () => {
    expect(isLocalRequest(request('127.0.0.1', '127.0.0.1'), false)).toBe(true);
    expect(isLocalRequest(request('::1', '::1'), false)).toBe(true);
    expect(isLocalRequest(request('192.0.2.2', '192.0.2.2'), false)).toBe(false);
    expect(isLocalRequest(request(undefined, ''), false)).toBe(false);
    for (const name of ['x-forwarded-for', 'forwarded', 'x-real-ip'])
      expect(isLocalRequest(request('127.0.0.1', '127.0.0.1', { [name]: '127.0.0.1' }), false), name).toBe(false);
  });

  it('with TRUST_PROXY: a loopback peer and a loopback client as the proxies report it', () => {
    expect(isLocalRequest(request('127.0.0.1', '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), true)).toBe(true);
    expect(isLocalRequest(request('127.0.0.1', '203.0.113.9', { 'x-forwarded-for': '203.0.113.9' }), true)).toBe(false);
    // A proxy on another machine reporting a loopback client: the peer itself is not this machine.
    expect(isLocalRequest(request('10.0.0.2', '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' }), true)).toBe(false);
  });
});
