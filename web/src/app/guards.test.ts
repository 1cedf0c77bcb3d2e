import { describe, expect, it } from 'vitest';
import type { Role } from '@tribuna/contracts/roles';
import { resolveAccess } from './guards';

const as = (role: Role) => ({ role });

describe('resolveAccess', () => {
  it('sends visitors to /login, whatever the requirement', () => {
    expect(resolveAccess(null)).toBe('/login');
    expect(resolveAccess(null, 'user')).toBe('/login');
    expect(resolveAccess(null, 'moderator')).toBe('/login');
    expect(resolveAccess(null, 'admin')).toBe('/login');
  });

  it('lets every signed-in role through a plain protection', () => {
    expect(resolveAccess(as('user'))).toBe('allow');
    expect(resolveAccess(as('moderator'))).toBe('allow');
    expect(resolveAccess(as('admin'))).toBe('allow');
  });

  it('lets an admin pass any requirement', () => {
    expect(resolveAccess(as('admin'), 'admin')).toBe('allow');
    expect(resolveAccess(as('admin'), 'moderator')).toBe('allow');
    expect(resolveAccess(as('admin'), 'user')).toBe('allow');
  });

  it('lets a moderator pass only a moderator requirement', () => {
    expect(resolveAccess(as('moderator'), 'moderator')).toBe('allow');
    expect(resolveAccess(as('moderator'), 'admin')).toBe('/');
    expect(resolveAccess(as('moderator'), 'user')).toBe('/');
  });

  it('sends a user who lacks the required role to /', () => {
    expect(resolveAccess(as('user'), 'admin')).toBe('/');
    expect(resolveAccess(as('user'), 'moderator')).toBe('/');
    expect(resolveAccess(as('user'), 'user')).toBe('allow');
  });
});
