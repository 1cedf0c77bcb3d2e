import { describe, expect, it } from 'vitest';
import { homeFor } from './homeFor';

describe('homeFor', () => {
  it('sends an admin to the back-office', () => {
    expect(homeFor({ role: 'admin' })).toBe('/admin');
  });

  it('sends moderators and users home', () => {
    expect(homeFor({ role: 'moderator' })).toBe('/');
    expect(homeFor({ role: 'user' })).toBe('/');
  });
});
