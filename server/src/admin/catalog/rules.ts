// The catalogue's form rules (spec admin-backoffice.md §4, §5), checked before anything is written.
import {
  ADMIN_LIMITS,
  ADMIN_MESSAGES,
  STATUSES_WITH_ELIMINATION_DATE,
  STATUSES_WITH_FINAL_POSITION,
  type ContestantStatus,
} from '@tribuna/contracts/adminRules';
import { badRequest } from '../../http/errors.ts';

/** Beyond the spec, same tone: what the schema lets through but the rows cannot hold. */
export const CATALOG_MESSAGES = {
  nameTooLong: `El nombre no puede exceder ${ADMIN_LIMITS.realityName} caracteres`,
  invalidDate: 'La fecha no es válida',
  photoRequired: 'Debes seleccionar una imagen',
  photoTooLarge: 'La imagen no puede exceder 5MB',
  photoOneImage: 'Solo se permite una imagen',
} as const;

/** Characters as PostgreSQL's char_length counts them (code points, not UTF-16 units). */
const charLength = (text: string) => [...text].length;

/** A name trimmed, 1..max characters: empty → `requiredMessage`. */
export function requiredName(raw: string, max: number, requiredMessage: string): string {
  const name = raw.trim();
  if (name.length === 0) throw badRequest(requiredMessage);
  if (charLength(name) > max) throw badRequest(CATALOG_MESSAGES.nameTooLong);
  return name;
}

export const realityName = (raw: string) => requiredName(raw, ADMIN_LIMITS.realityName, ADMIN_MESSAGES.realityNameRequired);
export const contestantName = (raw: string) => requiredName(raw, ADMIN_LIMITS.contestantName, ADMIN_MESSAGES.contestantNameRequired);

export function seasonYear(year: number): number {
  if (!Number.isInteger(year) || year < ADMIN_LIMITS.seasonYearMin || year > ADMIN_LIMITS.seasonYearMax) throw badRequest(ADMIN_MESSAGES.yearRange);
  return year;
}

/**
 * A YYYY-MM-DD that names a real day (the schema only checks the shape: 2025-02-30 would reach
 * PostgreSQL and fail there). Null and undefined pass through.
 */
export function calendarDate<T extends string | null | undefined>(value: T): T {
  if (value === null || value === undefined) return value;
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) throw badRequest(CATALOG_MESSAGES.invalidDate);
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1 || date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) throw badRequest(CATALOG_MESSAGES.invalidDate);
  return value;
}

/** Start on or before end when both are set. YYYY-MM-DD compares as text. */
export function seasonDates(startDate: string | null, endDate: string | null): void {
  calendarDate(startDate);
  calendarDate(endDate);
  if (startDate !== null && endDate !== null && startDate > endDate) throw badRequest(ADMIN_MESSAGES.seasonDates);
}

/** A path the media pipeline serves (content-addressed uploads, hand-placed seed images): no dot segments. */
const MEDIA_PATH = /^\/media\/[a-z0-9][a-z0-9_-]*(?:\/[a-z0-9][a-z0-9._-]*)*\.(?:webp|avif)$/;

/**
 * A contestant's photo: empty → null; otherwise an https URL (any host) or a /media/ URL of the
 * pipeline (an uploaded photo). javascript:, data:, http: and anything else are refused.
 */
export function photoUrl(raw: string | null | undefined): string | null {
  const value = (raw ?? '').trim();
  if (value === '') return null;
  if (MEDIA_PATH.test(value) && !value.includes('..')) return value;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badRequest(ADMIN_MESSAGES.photoUrlInvalid);
  }
  if (url.protocol !== 'https:' || url.hostname === '' || url.username !== '' || url.password !== '') throw badRequest(ADMIN_MESSAGES.photoUrlInvalid);
  // Stored as the parser spells it: no raw spaces or quotes ever reach an attribute.
  return url.href;
}

export interface ContestantOutcome {
  status: ContestantStatus;
  eliminationDate: string | null;
  finalPosition: number | null;
}

/**
 * Keeps the elimination date only for eliminated, finalist and winner, the final position only for
 * finalist and winner (a whole number ≥ 1); every other combination stores null (§4).
 */
export function contestantOutcome(status: ContestantStatus, eliminationDate: string | null, finalPosition: number | null): ContestantOutcome {
  const keepsDate = STATUSES_WITH_ELIMINATION_DATE.includes(status);
  const keepsPosition = STATUSES_WITH_FINAL_POSITION.includes(status);
  if (keepsPosition && finalPosition !== null && (!Number.isInteger(finalPosition) || finalPosition < 1)) {
    throw badRequest(ADMIN_MESSAGES.finalPositionInvalid);
  }
  return {
    status,
    eliminationDate: keepsDate ? calendarDate(eliminationDate) : null,
    finalPosition: keepsPosition ? finalPosition : null,
  };
}
