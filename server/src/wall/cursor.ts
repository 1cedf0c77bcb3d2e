import type { FeedSort } from '@tribuna/contracts/wallRules';
import type { FeedPosition } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A feed cursor: the sort it belongs to, the last card's sort key (microseconds, exact, unlike a
 * JavaScript Date) and its id, base64url. Opaque to clients; a cursor of the other sort is refused.
 */
export function encodeCursor(sort: FeedSort, position: { atMicros: bigint | string; id: string }): string {
  return Buffer.from(`${sort === 'recent' ? 'r' : 'a'}.${position.atMicros}.${position.id}`).toString('base64url');
}

/** The position of a cursor, or null when it is malformed or of another sort. */
export function decodeCursor(sort: FeedSort, cursor: string): FeedPosition | null {
  const [kind, micros, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || kind !== (sort === 'recent' ? 'r' : 'a')) return null;
  if (!micros || !/^\d{1,17}$/.test(micros) || !id || !UUID.test(id)) return null;
  return { atMicros: BigInt(micros), id };
}
