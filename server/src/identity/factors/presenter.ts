import type { Factor } from '@tribuna/contracts/api/auth';
import type { FactorRow } from './repository.ts';

export function presentFactor(row: FactorRow): Factor {
  return { id: row.id, factorType: 'totp', status: row.status, createdAt: row.createdAt.toISOString() };
}
