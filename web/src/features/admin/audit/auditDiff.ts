// The audit log's before/after, made readable: the keys that changed with their old and new values.

export interface AuditChange {
  key: string;
  before: unknown;
  after: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isEmpty = (value: unknown) => value === null || value === undefined;

/**
 * The changed keys (in the order they appear, before's first) when before and after are objects,
 * or one is an object and the other empty (a creation or a deletion: every key counts as changed).
 * Null when the entry holds something else (a list, a bare value): the screen shows the JSON.
 */
export function auditChanges(before: unknown, after: unknown): AuditChange[] | null {
  if (isEmpty(before) && isEmpty(after)) return [];
  if (!(isRecord(before) || isEmpty(before)) || !(isRecord(after) || isEmpty(after))) return null;
  const from = isRecord(before) ? before : {};
  const to = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return keys.filter((key) => JSON.stringify(from[key]) !== JSON.stringify(to[key])).map((key) => ({ key, before: from[key], after: to[key] }));
}

/** A value as the diff shows it: text as it is, '—' when absent, JSON otherwise. */
export function formatAuditValue(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  return JSON.stringify(value);
}

/** Pretty JSON of a whole before/after ('—' when empty). */
export function auditJson(value: unknown): string {
  return isEmpty(value) ? '—' : JSON.stringify(value, null, 2);
}
