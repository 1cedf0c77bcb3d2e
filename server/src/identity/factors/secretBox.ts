import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '@tribuna/contracts/config';

/**
 * TOTP secrets at rest: AES-256-GCM, stored as `v1:<keyId>:<iv>:<tag>:<ciphertext>` (base64url).
 * The key id says which key sealed a value, so older keys keep decrypting during a rotation and
 * the start-up migration knows which rows to re-encrypt. The additional authenticated data binds
 * a ciphertext to its row: copied into another row it no longer decrypts.
 */
const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
/** Full-length tags only: GCM would otherwise accept a truncated (forgeable) one. */
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** HKDF context of the key derived from SESSION_SECRET when TOTP_ENCRYPTION_KEY is unset. */
const DERIVED_KEY_INFO = 'tribuna totp secrets v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** A key as TOTP_ENCRYPTION_KEY accepts it: 64 hex characters, or base64 (standard or url-safe) of 32 bytes. */
export function parseKey(raw: string): Buffer {
  const bytes = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (bytes.length !== KEY_BYTES) throw new SecretBoxError('a TOTP encryption key must be 32 bytes');
  return bytes;
}

const keyOf = (bytes: Buffer): Key => ({ id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes });

/** The additional authenticated data of a factor's secret: its row and its owner. */
export const factorSecretAad = (factor: { id: string; userId: string }) => `auth_factors:${factor.id}:${factor.userId}`;

export class SecretBox {
  private readonly current: Key;
  private readonly keys: Map<string, Key>;

  /** `current` seals and opens; `previous` only open (values sealed before a rotation). */
  constructor(current: Buffer, previous: Buffer[] = []) {
    this.current = keyOf(current);
    this.keys = new Map([...previous.map(keyOf), this.current].map((k) => [k.id, k]));
  }

  /** TOTP_ENCRYPTION_KEY, else a key derived from SESSION_SECRET with HKDF-SHA256; plus TOTP_ENCRYPTION_PREVIOUS_KEYS. */
  static fromConfig(config: Pick<Config, 'totpEncryptionKey' | 'totpEncryptionPreviousKeys' | 'sessionSecret'>): SecretBox {
    const current =
      config.totpEncryptionKey === null
        ? Buffer.from(hkdfSync('sha256', config.sessionSecret, '', DERIVED_KEY_INFO, KEY_BYTES))
        : parseKey(config.totpEncryptionKey);
    return new SecretBox(current, config.totpEncryptionPreviousKeys.map(parseKey));
  }

  /** True for a value in this module's format (whatever the key); plaintext base32 never is. */
  static isSealed(stored: string): boolean {
    return stored.startsWith(`${VERSION}:`);
  }

  /** Every value sealed with the current key starts with this. */
  get sealedPrefix(): string {
    return `${VERSION}:${this.current.id}:`;
  }

  seal(plaintext: string, aad: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.current.bytes, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
    return [VERSION, this.current.id, ...parts].join(':');
  }

  open(sealed: string, aad: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 5 || parts[0] !== VERSION) throw new SecretBoxError('the stored TOTP secret is not encrypted (v1)');
    const [, keyId, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) {
      throw new SecretBoxError(
        `the stored TOTP secret was encrypted with an unknown key (id ${keyId}); ` + 'set that key in TOTP_ENCRYPTION_KEY or TOTP_ENCRYPTION_PREVIOUS_KEYS',
      );
    }
    try {
      const decipher = createDecipheriv(ALGORITHM, key.bytes, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(aad, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(`the stored TOTP secret failed authentication (key id ${keyId}): altered, or moved from another row`);
    }
  }
}
