import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Config } from '@tribuna/contracts/config';
import { schema } from '@tribuna/drizzle';
import type { Db } from '@tribuna/drizzle/client';
import { factorSecretAad, SecretBox } from '../../../server/src/identity/factors/secretBox.ts';

/** The code an authenticator app shows for `secret`, `steps` periods from now. */
export function totpCode(secret: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  });
}

/** A TOTP factor row as enrolment stores it: `secret` (base32) encrypted with the app's key. */
export async function insertTotpFactor(db: Db, config: Config, values: { userId: string; secret: string; status?: 'verified' | 'unverified' }) {
  const id = randomUUID();
  const sealed = SecretBox.fromConfig(config).seal(values.secret, factorSecretAad({ id, userId: values.userId }));
  const [row] = await db
    .insert(schema.authFactors)
    .values({ id, userId: values.userId, secret: sealed, status: values.status ?? 'verified' })
    .returning();
  return row!;
}

/** `count` different valid-looking codes, none of them valid now (nor a neighbouring step). */
export function wrongTotpCodes(secret: string, count = 1): string[] {
  const valid = new Set([-1, 0, 1].map((s) => totpCode(secret, s)));
  const codes: string[] = [];
  for (let n = 0; codes.length < count; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!valid.has(candidate)) codes.push(candidate);
  }
  return codes;
}
