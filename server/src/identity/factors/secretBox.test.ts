import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../../../test/support/env.ts';
import { factorSecretAad, SecretBox, SecretBoxError } from './secretBox.ts';

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const AAD = factorSecretAad({ id: '6f1c2a8e-0d4b-4c1e-9a57-3b2f0e7d9c11', userId: '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d' });
const newKey = () => randomBytes(32);

/** `sealed` with one base64url part (1 iv, 2 tag, 3 ciphertext) altered by one bit. */
function flipBit(sealed: string, part: 1 | 2 | 3): string {
  const parts = sealed.split(':');
  const bytes = Buffer.from(parts[part + 1]!, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  parts[part + 1] = bytes.toString('base64url');
  return parts.join(':');
}

describe('SecretBox (TOTP secrets at rest)', () => {
  it('round-trips with a fresh IV every time, in the versioned format naming the key', () => {
    const box = new SecretBox(newKey());
    const first = box.seal(SECRET, AAD);
    const second = box.seal(SECRET, AAD);
    expect(first).toMatch(/^v1:[0-9a-f]{8}:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(first.startsWith(box.sealedPrefix)).toBe(true);
    expect(first.split(':')[2]).not.toBe(second.split(':')[2]);
    expect(first).not.toBe(second);
    expect(box.open(first, AAD)).toBe(SECRET);
    expect(box.open(second, AAD)).toBe(SECRET);
  });

  it('detects tampering with the IV, the tag or the ciphertext', () => {
    const box = new SecretBox(newKey());
    const sealed = box.seal(SECRET, AAD);
    for (const part of [1, 2, 3] as const) {
      expect(() => box.open(flipBit(sealed, part), AAD)).toThrow(/failed authentication/);
    }
    // A truncated tag is not accepted either (GCM would otherwise check only its first bytes).
    const parts = sealed.split(':');
    parts[3] = Buffer.from(parts[3]!, 'base64url').subarray(0, 4).toString('base64url');
    expect(() => box.open(parts.join(':'), AAD)).toThrow(SecretBoxError);
  });

  it('refuses a value sealed with another key under this key id', () => {
    const box = new SecretBox(newKey());
    const other = new SecretBox(newKey());
    const forged = other.seal(SECRET, AAD).replace(/^v1:[0-9a-f]{8}:/, box.sealedPrefix);
    expect(() => box.open(forged, AAD)).toThrow(/failed authentication/);
  });

  it('binds a value to its row: another factor id or user id does not open it', () => {
    const box = new SecretBox(newKey());
    const sealed = box.seal(SECRET, AAD);
    const [id, userId] = ['6f1c2a8e-0d4b-4c1e-9a57-3b2f0e7d9c11', '0a9b8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d'];
    expect(() => box.open(sealed, factorSecretAad({ id: userId, userId }))).toThrow(/moved from another row/);
    expect(() => box.open(sealed, factorSecretAad({ id, userId: id }))).toThrow(/moved from another row/);
  });

  it('opens values of a previous key and seals with the current one (rotation)', () => {
    const oldKey = newKey();
    const sealedBefore = new SecretBox(oldKey).seal(SECRET, AAD);
    const rotated = new SecretBox(newKey(), [oldKey]);
    expect(rotated.open(sealedBefore, AAD)).toBe(SECRET);
    expect(sealedBefore.startsWith(rotated.sealedPrefix)).toBe(false);
    const resealed = rotated.seal(SECRET, AAD);
    expect(resealed.startsWith(rotated.sealedPrefix)).toBe(true);
    expect(() => new SecretBox(oldKey).open(resealed, AAD)).toThrow(SecretBoxError);
  });

  it('names an unknown key id and the variables to set', () => {
    const sealed = new SecretBox(newKey()).seal(SECRET, AAD);
    const keyId = sealed.split(':')[1]!;
    expect(() => new SecretBox(newKey()).open(sealed, AAD)).toThrow(
      new SecretBoxError(
        `the stored TOTP secret was encrypted with an unknown key (id ${keyId}); set that key in TOTP_ENCRYPTION_KEY or TOTP_ENCRYPTION_PREVIOUS_KEYS`,
      ),
    );
  });

  it('refuses to open a plaintext secret; tells sealed values from plaintext ones', () => {
    const box = new SecretBox(newKey());
    expect(() => box.open(SECRET, AAD)).toThrow(/not encrypted/);
    expect(SecretBox.isSealed(SECRET)).toBe(false);
    expect(SecretBox.isSealed(box.seal(SECRET, AAD))).toBe(true);
  });

  describe('keys from the configuration', () => {
    it('reads TOTP_ENCRYPTION_KEY as hex or base64 (the same 32 bytes, the same key)', () => {
      const key = newKey();
      const fromHex = SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: key.toString('hex') }));
      const fromBase64 = SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: key.toString('base64') }));
      const fromBase64Url = SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: key.toString('base64url') }));
      expect(fromBase64.sealedPrefix).toBe(fromHex.sealedPrefix);
      expect(fromBase64Url.sealedPrefix).toBe(fromHex.sealedPrefix);
      expect(fromBase64.open(fromHex.seal(SECRET, AAD), AAD)).toBe(SECRET);
    });

    it('without TOTP_ENCRYPTION_KEY, derives the key from SESSION_SECRET (stable for one secret, another for another)', () => {
      const sealed = SecretBox.fromConfig(testConfig()).seal(SECRET, AAD);
      expect(SecretBox.fromConfig(testConfig()).open(sealed, AAD)).toBe(SECRET);
      const otherSecret = SecretBox.fromConfig(testConfig({ SESSION_SECRET: 'another-session-secret-of-32-characters' }));
      expect(() => otherSecret.open(sealed, AAD)).toThrow(/unknown key/);
      // An explicit key is not the derived one.
      expect(SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: newKey().toString('hex') })).sealedPrefix).not.toBe(
        SecretBox.fromConfig(testConfig()).sealedPrefix,
      );
    });

    it('accepts TOTP_ENCRYPTION_PREVIOUS_KEYS for opening only', () => {
      const [oldKey, currentKey] = [newKey().toString('hex'), newKey().toString('base64')];
      const sealedBefore = SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: oldKey })).seal(SECRET, AAD);
      const box = SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: currentKey, TOTP_ENCRYPTION_PREVIOUS_KEYS: oldKey }));
      expect(box.open(sealedBefore, AAD)).toBe(SECRET);
      expect(box.sealedPrefix).toBe(SecretBox.fromConfig(testConfig({ TOTP_ENCRYPTION_KEY: currentKey })).sealedPrefix);
    });
  });
});
