import { randomInt } from 'node:crypto';

export const DISPLAY_NAME_MAX = 50;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const USERNAME_PATTERN = /^[a-z0-9_]{3,20}$/;
export const FALLBACK_DISPLAY_NAME = 'Usuario';

/** Cuts by code points, matching PostgreSQL's char_length. */
function cutChars(value: string, max: number): string {
  const chars = Array.from(value);
  return chars.length <= max ? value : chars.slice(0, max).join('');
}

function emailLocalPart(email: string | null | undefined): string {
  return (email ?? '').split('@')[0] ?? '';
}

/** Control characters out, runs of whitespace as one space, trimmed. */
function tidy(value: string): string {
  return value
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The display name of a new profile: the identity provider's name, trimmed and cut to 50
 * characters; else the e-mail's local part; else 'Usuario'.
 */
export function displayNameFrom(name: string | null | undefined, email?: string | null): string {
  for (const source of [name ?? '', emailLocalPart(email)]) {
    const cleaned = cutChars(tidy(source), DISPLAY_NAME_MAX).trim();
    if (cleaned) return cleaned;
  }
  return FALLBACK_DISPLAY_NAME;
}

/** 'José Ñúñez!' → 'jose_nunez': accents stripped, lower case, anything else becomes one underscore. */
export function slugifyUsername(source: string): string {
  return source
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * The preferred username for a new profile (3-20 of a-z 0-9 _), from the name, else the e-mail's
 * local part; a too short result is padded ('jo' → 'jo_fan', nothing → 'fan').
 */
export function usernameBase(name: string | null | undefined, email?: string | null): string {
  const fromName = slugifyUsername(name ?? '');
  const fromEmail = slugifyUsername(emailLocalPart(email));
  let base = fromName.length >= USERNAME_MIN ? fromName : fromEmail.length >= USERNAME_MIN ? fromEmail : fromName || fromEmail;
  base = base.slice(0, USERNAME_MAX).replace(/_+$/, '');
  if (base.length < USERNAME_MIN) base = base ? `${base}_fan` : 'fan';
  return base;
}

/**
 * The username to try on attempt `n` (0 = the base itself): later attempts append random digits,
 * more of them as collisions go on, cutting the base so the result stays within 20 characters.
 */
export function usernameCandidate(base: string, attempt: number): string {
  if (attempt === 0) return base;
  const digits = attempt <= 4 ? 3 : attempt <= 8 ? 5 : 7;
  const suffix = String(randomInt(10 ** (digits - 1), 10 ** digits));
  const head = base.slice(0, USERNAME_MAX - suffix.length);
  return `${head}${suffix}`;
}
