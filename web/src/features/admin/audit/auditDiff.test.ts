import { describe, expect, it } from 'vitest';
import { auditChanges, auditJson, formatAuditValue } from './auditDiff';

describe('auditChanges', () => {
  it('lists the keys that changed, old and new', () => {
    expect(auditChanges({ role: 'user', username: 'ana', bio: null }, { role: 'admin', username: 'ana', bio: 'Hola' })).toEqual([
      { key: 'role', before: 'user', after: 'admin' },
      { key: 'bio', before: null, after: 'Hola' },
    ]);
  });

  it('compares nested values by content and counts keys present on one side only', () => {
    expect(auditChanges({ config: { a: 1 }, gone: true }, { config: { a: 1 }, added: 2 })).toEqual([
      { key: 'gone', before: true, after: undefined },
      { key: 'added', before: undefined, after: 2 },
    ]);
  });

  it('treats a creation or a deletion as every key changing; nothing on either side is no change', () => {
    expect(auditChanges(null, { name: 'La Casa' })).toEqual([{ key: 'name', before: undefined, after: 'La Casa' }]);
    expect(auditChanges({ name: 'La Casa' }, null)).toEqual([{ key: 'name', before: 'La Casa', after: undefined }]);
    expect(auditChanges(null, null)).toEqual([]);
  });

  it('gives up on lists and bare values (the screen shows the JSON)', () => {
    expect(auditChanges([1, 2], [1])).toBeNull();
    expect(auditChanges('a', { b: 1 })).toBeNull();
  });

  it('formats values for the diff and the JSON view', () => {
    expect(formatAuditValue(undefined)).toBe('—');
    expect(formatAuditValue('texto')).toBe('texto');
    expect(formatAuditValue('')).toBe('""');
    expect(formatAuditValue(null)).toBe('null');
    expect(formatAuditValue({ a: [1] })).toBe('{"a":[1]}');
    expect(auditJson(null)).toBe('—');
    expect(auditJson([1])).toBe('[\n  1\n]');
  });
});
