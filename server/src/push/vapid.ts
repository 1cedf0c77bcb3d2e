import { createECDH, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@tribuna/contracts/config';

/** The VAPID key pair (RFC 8292), base64url: the P-256 public point (65 bytes, uncompressed) and the private scalar (32 bytes). */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

const PUBLIC_KEY = /^[A-Za-z0-9_-]{87}$/;
const PRIVATE_KEY = /^[A-Za-z0-9_-]{43}$/;

export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const scalar = ecdh.getPrivateKey();
  // 32 bytes whatever the scalar's leading zeros.
  const privateKey = Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
  return { publicKey: ecdh.getPublicKey().toString('base64url'), privateKey: privateKey.toString('base64url') };
}

/** Whether the pair is well-formed and the public key is the private key's (a file edited by hand, or two halves of different pairs). */
export function isVapidKeyPair(keys: unknown): keys is VapidKeys {
  if (typeof keys !== 'object' || keys === null) return false;
  const { publicKey, privateKey } = keys as Record<string, unknown>;
  if (typeof publicKey !== 'string' || typeof privateKey !== 'string' || !PUBLIC_KEY.test(publicKey) || !PRIVATE_KEY.test(privateKey)) return false;
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    return ecdh.getPublicKey().toString('base64url') === publicKey;
  } catch {
    return false;
  }
}

async function readKeys(file: string): Promise<VapidKeys> {
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!isVapidKeyPair(parsed)) throw new Error(`${file} does not hold a VAPID key pair (delete it to generate a new one)`);
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

const isCode = (err: unknown, code: string) => (err as NodeJS.ErrnoException | null)?.code === code;

/**
 * Creates the keys file once: the pair is written to a temporary file (mode 0600) and linked into
 * place with the 'wx' semantics of a hard link (fails if the file exists), so a reader never sees a
 * half-written file and, of two processes starting together, one pair wins and both use it.
 */
async function createKeysFile(file: string): Promise<VapidKeys> {
  await mkdir(path.dirname(file), { recursive: true });
  const keys = generateVapidKeys();
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temporary, file);
    return keys;
  } catch (err) {
    if (isCode(err, 'EEXIST')) return readKeys(file);
    // No hard links here (some filesystems): an exclusive create of the file itself.
    if (isCode(err, 'EPERM') || isCode(err, 'ENOTSUP') || isCode(err, 'EXDEV')) return exclusiveCreate(file, keys);
    throw err;
  } finally {
    await rm(temporary, { force: true });
  }
}

async function exclusiveCreate(file: string, keys: VapidKeys): Promise<VapidKeys> {
  try {
    await writeFile(file, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
    return keys;
  } catch (err) {
    if (!isCode(err, 'EEXIST')) throw err;
    // The other process may still be writing it: wait until it parses.
    for (let attempt = 0; ; attempt++) {
      try {
        return await readKeys(file);
      } catch (readError) {
        if (attempt >= 50) throw readError;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  }
}

/**
 * The VAPID keys of this deployment (the server's GET /api/push/config and the worker's requests):
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when set; else, outside production, those of
 * config.push.keysFile (VAPID_KEYS_FILE), generated there on first start like the embedded
 * database's files under ./data; else (production without keys) null: web push is off.
 */
export async function loadVapidKeys(config: Pick<Config, 'nodeEnv' | 'push'>): Promise<VapidKeys | null> {
  const { vapidPublicKey, vapidPrivateKey, keysFile } = config.push;
  if (vapidPublicKey !== null && vapidPrivateKey !== null) return { publicKey: vapidPublicKey, privateKey: vapidPrivateKey };
  if (config.nodeEnv === 'production') return null;
  const file = path.resolve(keysFile);
  try {
    return await readKeys(file);
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw err;
  }
  return createKeysFile(file);
}
