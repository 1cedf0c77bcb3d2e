import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@tribuna/drizzle/client';
import * as repo from './repository.ts';
import { factorSecretAad, SecretBox, SecretBoxError } from './secretBox.ts';

const BATCH_SIZE = 100;
const BEFORE_EVERY_UUID = '00000000-0000-0000-0000-000000000000';

export interface SealingReport {
  /** Plaintext secrets now encrypted. */
  encrypted: number;
  /** Secrets sealed with a previous key, now sealed with the current one. */
  reencrypted: number;
  /** Factors whose secret no configured key opens (left as they are). */
  unreadable: string[];
}

/**
 * The start-up data migration of auth_factors.secret: encrypts plaintext secrets (stored before
 * encryption at rest) and re-encrypts those sealed with a previous key (rotation). Idempotent: rows
 * already sealed with the current key are not touched. One transaction per batch, serialised
 * between instances starting together by an advisory lock.
 */
export async function sealTotpSecrets(db: Db, box: SecretBox, log: Pick<FastifyBaseLogger, 'info' | 'error'>, batchSize = BATCH_SIZE): Promise<SealingReport> {
  const report: SealingReport = { encrypted: 0, reencrypted: 0, unreadable: [] };
  let afterId = BEFORE_EVERY_UUID;
  for (;;) {
    const batch = await db.transaction(async (tx) => {
      await repo.lockSecretSealing(tx);
      const rows = await repo.factorsToSeal(tx, box.sealedPrefix, afterId, batchSize);
      const done: SealingReport = { encrypted: 0, reencrypted: 0, unreadable: [] };
      for (const row of rows) {
        const aad = factorSecretAad(row);
        let plaintext = row.secret;
        if (SecretBox.isSealed(row.secret)) {
          try {
            plaintext = box.open(row.secret, aad);
          } catch (err) {
            if (!(err instanceof SecretBoxError)) throw err;
            done.unreadable.push(row.id);
            log.error({ factorId: row.id, reason: err.message }, 'TOTP secret cannot be decrypted; left as it is');
            continue;
          }
          done.reencrypted++;
        } else {
          done.encrypted++;
        }
        await repo.replaceSecret(tx, row.id, box.seal(plaintext, aad));
      }
      return { rows, done };
    });
    report.encrypted += batch.done.encrypted;
    report.reencrypted += batch.done.reencrypted;
    report.unreadable.push(...batch.done.unreadable);
    if (batch.rows.length < batchSize) break;
    afterId = batch.rows.at(-1)!.id;
  }
  if (report.encrypted + report.reencrypted > 0) {
    log.info({ encrypted: report.encrypted, reencrypted: report.reencrypted }, 'TOTP secrets sealed with the current key');
  }
  if (report.unreadable.length > 0) {
    log.error(
      { factors: report.unreadable.length },
      'some TOTP secrets are encrypted with a key that is not configured: their users cannot pass the second factor ' +
        'until that key is set in TOTP_ENCRYPTION_KEY or TOTP_ENCRYPTION_PREVIOUS_KEYS',
    );
  }
  return report;
}
