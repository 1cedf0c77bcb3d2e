import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/env.ts';
import { generateVapidKeys, isVapidKeyPair, loadVapidKeys } from './vapid.ts';

describe('VAPID keys', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'tribuna-vapid-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('generates well-formed pairs (87 and 43 base64url characters, the public key derived from the private one)', () => {
    const keys = generateVapidKeys();
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(keys.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(isVapidKeyPair(keys)).toBe(true);
    expect(isVapidKeyPair({ publicKey: keys.publicKey, privateKey: generateVapidKeys().privateKey })).toBe(false);
  });

  it('uses the environment keys when set, without touching the keys file', async () => {
    const env = generateVapidKeys();
    const file = path.join(dir, 'vapid.json');
    const config = testConfig({ VAPID_PUBLIC_KEY: env.publicKey, VAPID_PRIVATE_KEY: env.privateKey, VAPID_KEYS_FILE: file });
    expect(await loadVapidKeys(config)).toEqual(env);
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('outside production, generates the keys file once (mode 0600) and reads it back afterwards', async () => {
    const file = path.join(dir, 'nested', 'vapid.json');
    const config = testConfig({ VAPID_KEYS_FILE: file });
    const first = await loadVapidKeys(config);
    expect(first && isVapidKeyPair(first)).toBe(true);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(first);
    expect(await loadVapidKeys(config)).toEqual(first);
  });

  it('processes starting together end with the same keys', async () => {
    const file = path.join(dir, 'vapid.json');
    const config = testConfig({ VAPID_KEYS_FILE: file });
    const all = await Promise.all(Array.from({ length: 8 }, () => loadVapidKeys(config)));
    expect(new Set(all.map((keys) => keys!.publicKey)).size).toBe(1);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(all[0]);
  });

  it('refuses a keys file that holds no pair rather than replacing it', async () => {
    const file = path.join(dir, 'vapid.json');
    await writeFile(file, JSON.stringify({ publicKey: 'x', privateKey: 'y' }));
    await expect(loadVapidKeys(testConfig({ VAPID_KEYS_FILE: file }))).rejects.toThrow(/does not hold a VAPID key pair/);
  });

  it('in production without keys: none (push off), and no file is written', async () => {
    const file = path.join(dir, 'vapid.json');
    const config = { ...testConfig({ VAPID_KEYS_FILE: file }), nodeEnv: 'production' as const };
    expect(await loadVapidKeys(config)).toBeNull();
    await expect(stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
