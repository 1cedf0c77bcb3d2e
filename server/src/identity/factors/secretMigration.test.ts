// The start-up data migration of auth_factors.secret, against the real database: plaintext rows
// (stored before encryption at rest) get encrypted, rows of a previous key re-encrypted.
import { randomBytes } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { totpCode } from '../../../../test/support/server/factors.ts';
import { signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { factorSecretAad, SecretBox } from './secretBox.ts';
import { sealTotpSecrets } from './secretMigration.ts';
import { newTotpSecret } from './totp.ts';

const hexKey = () => randomBytes(32).toString('hex');

interface PlaintextFactor {
  user: { id: string };
  secret: string;
  row: { id: string; userId: string };
}

describe('encrypting stored TOTP secrets at start', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));
  const others: App[] = [];
  afterEach(async () => {
    await Promise.all(others.splice(0).map((a) => a.close()));
  });

  /** An app with other TOTP keys on the same database and Redis. */
  async function appWith(env: Record<string, string>): Promise<App> {
    const other = await buildApp(testConfig(env));
    others.push(other);
    return other;
  }

  /** Factors as an older version stored them: the base32 secret in plaintext. */
  async function plaintextFactors(count: number): Promise<PlaintextFactor[]> {
    const factors: PlaintextFactor[] = [];
    for (let i = 0; i < count; i++) {
      const user = await buildUser(database.db);
      const secret = newTotpSecret();
      const [row] = await database.db
        .insert(schema.authFactors)
        .values({ userId: user.id, secret, status: i % 2 === 0 ? 'verified' : 'unverified' })
        .returning();
      factors.push({ user, secret, row: row! });
    }
    return factors;
  }

  const storedSecrets = async () =>
    database.db.select({ id: schema.authFactors.id, secret: schema.authFactors.secret }).from(schema.authFactors).orderBy(asc(schema.authFactors.id));

  /** A sign-in owing its second factor, completed through the app with the code of `steps` periods from now. */
  async function passSecondFactor(target: App, factor: PlaintextFactor, steps = 0) {
    const { cookie } = await signIn(target, factor.user, { mfaPending: true });
    const headers = { cookie, ...XHR };
    const challenge = await target.inject({ method: 'POST', url: `/api/auth/factors/${factor.row.id}/challenge`, headers });
    return target.inject({
      method: 'POST',
      url: `/api/auth/factors/${factor.row.id}/verify`,
      headers,
      payload: { challengeId: challenge.json().challengeId, code: totpCode(factor.secret, steps) },
    });
  }

  it('encrypts every plaintext secret (in batches), verification keeps working, and a second run changes nothing', async () => {
    const factors = await plaintextFactors(5);
    const box = SecretBox.fromConfig(app.config);

    const report = await sealTotpSecrets(app.database.db, box, app.log, 2);
    expect(report).toEqual({ encrypted: 5, reencrypted: 0, unreadable: [] });
    const stored = await storedSecrets();
    for (const { secret, row } of factors) {
      const sealed = stored.find((s) => s.id === row.id)!.secret;
      expect(sealed.startsWith(box.sealedPrefix)).toBe(true);
      expect(sealed).not.toContain(secret);
      expect(box.open(sealed, factorSecretAad(row))).toBe(secret);
    }
    const verified = factors[0]!;
    expect((await passSecondFactor(app, verified)).statusCode).toBe(200);

    const again = await sealTotpSecrets(app.database.db, box, app.log, 2);
    expect(again).toEqual({ encrypted: 0, reencrypted: 0, unreadable: [] });
    expect(await storedSecrets()).toEqual(stored);
  });

  it('is safe when two instances start at once: every row encrypted once, all readable', async () => {
    const factors = await plaintextFactors(6);
    const box = SecretBox.fromConfig(app.config);
    const [a, b] = await Promise.all([sealTotpSecrets(app.database.db, box, app.log, 2), sealTotpSecrets(database.db, box, app.log, 2)]);
    expect(a.encrypted + b.encrypted).toBe(6);
    expect(a.reencrypted + b.reencrypted).toBe(0);
    const stored = await storedSecrets();
    for (const { secret, row } of factors) expect(box.open(stored.find((s) => s.id === row.id)!.secret, factorSecretAad(row))).toBe(secret);
  });

  it('re-encrypts with the new key during a rotation; codes verify while rotating and after it', async () => {
    const [oldKey, newKey] = [hexKey(), hexKey()];
    const factors = await plaintextFactors(3);
    const before = await appWith({ TOTP_ENCRYPTION_KEY: oldKey });
    expect(await sealTotpSecrets(before.database.db, SecretBox.fromConfig(before.config), before.log)).toMatchObject({ encrypted: 3 });
    const verified = factors[0]!;

    // New key current, old key previous: already-stored secrets still open before the migration ran.
    const rotating = await appWith({ TOTP_ENCRYPTION_KEY: newKey, TOTP_ENCRYPTION_PREVIOUS_KEYS: oldKey });
    expect((await passSecondFactor(rotating, verified, 0)).statusCode).toBe(200);
    const newBox = SecretBox.fromConfig(rotating.config);
    const report = await sealTotpSecrets(rotating.database.db, newBox, rotating.log);
    expect(report).toEqual({ encrypted: 0, reencrypted: 3, unreadable: [] });
    for (const { secret, row } of factors) {
      const sealed = (await storedSecrets()).find((s) => s.id === row.id)!.secret;
      expect(sealed.startsWith(newBox.sealedPrefix)).toBe(true);
      expect(newBox.open(sealed, factorSecretAad(row))).toBe(secret);
    }

    // Once every instance restarted, the previous key can go.
    const after = await appWith({ TOTP_ENCRYPTION_KEY: newKey });
    expect(await sealTotpSecrets(after.database.db, SecretBox.fromConfig(after.config), after.log)).toEqual({
      encrypted: 0,
      reencrypted: 0,
      unreadable: [],
    });
    expect((await passSecondFactor(after, verified, 1)).statusCode).toBe(200);
  });

  it('leaves a secret of an unknown key as it is and reports it; its second factor cannot be passed', async () => {
    const [readable, lost] = (await plaintextFactors(2)) as [PlaintextFactor, PlaintextFactor];
    const lostSealed = new SecretBox(randomBytes(32)).seal(lost.secret, factorSecretAad(lost.row));
    await database.db.update(schema.authFactors).set({ secret: lostSealed, status: 'verified' }).where(eq(schema.authFactors.id, lost.row.id));

    const report = await sealTotpSecrets(app.database.db, SecretBox.fromConfig(app.config), app.log);
    expect(report).toEqual({ encrypted: 1, reencrypted: 0, unreadable: [lost.row.id] });
    const stored = await storedSecrets();
    expect(stored.find((s) => s.id === lost.row.id)!.secret).toBe(lostSealed);
    expect((await passSecondFactor(app, readable)).statusCode).toBe(200);

    const refused = await passSecondFactor(app, lost);
    expect(refused.statusCode).toBe(500);
    const sessions = await database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, lost.user.id));
    expect(sessions.every((s) => s.mfaPending && s.level === 'aal1')).toBe(true);
  });
});
