// Keyset cursors of the groups' lists: the list's letter, the last row's sort key and its id,
// base64url. Opaque to clients; a cursor of another list is refused.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** d: the directory (member count); m: members (role rank _ joined microseconds); r: requests and b: bans (microseconds). */
export type GroupListKind = 'd' | 'm' | 'r' | 'b';

const SORT_KEYS: Record<GroupListKind, RegExp> = {
  d: /^\d{1,10}$/,
  m: /^[0-2]_\d{1,17}$/,
  r: /^\d{1,17}$/,
  b: /^\d{1,17}$/,
};

export function encodeCursor(kind: GroupListKind, sort: string, id: string): string {
  return Buffer.from(`${kind}.${sort}.${id}`).toString('base64url');
}

/** The position of a cursor of list `kind`, or null when it is malformed or of another list. */
export function decodeCursor(kind: GroupListKind, cursor: string): { sort: string; id: string } | null {
  const [prefix, sort, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || prefix !== kind || !sort || !SORT_KEYS[kind].test(sort) || !id || !UUID.test(id)) return null;
  return { sort, id };
}
