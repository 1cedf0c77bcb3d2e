import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { CreateSeasonInput, SeasonView } from '@tribuna/contracts/api/admin/catalog';

export interface SeasonForm {
  realityId: string;
  number: string;
  year: string;
  startDate: string;
  endDate: string;
  active: boolean;
}

export type SeasonFormErrors = Partial<Record<'realityId' | 'number' | 'year' | 'endDate', string>>;

export const NUMBER_INVALID = 'El número debe ser un entero mayor o igual a 1';

/** The number a new season of `realityId` gets by default: one more than its highest (1 for the first). */
export function nextSeasonNumber(seasons: readonly SeasonView[], realityId: string): number {
  return seasons.filter((s) => s.realityId === realityId).reduce((max, s) => Math.max(max, s.number), 0) + 1;
}

const isWhole = (text: string) => /^\d+$/.test(text.trim());

/** The form's rules (spec §5), checked again by the server. */
export function validateSeasonForm(form: SeasonForm): SeasonFormErrors {
  const errors: SeasonFormErrors = {};
  if (!form.realityId) errors.realityId = ADMIN_MESSAGES.realityRequired;
  if (form.number.trim() && (!isWhole(form.number) || Number(form.number) < 1)) errors.number = NUMBER_INVALID;
  const year = Number(form.year);
  if (!isWhole(form.year) || year < ADMIN_LIMITS.seasonYearMin || year > ADMIN_LIMITS.seasonYearMax) errors.year = ADMIN_MESSAGES.yearRange;
  if (form.startDate && form.endDate && form.startDate > form.endDate) errors.endDate = ADMIN_MESSAGES.seasonDates;
  return errors;
}

/** What the form sends: empty dates as null, an empty number left to the server (the next one). */
export function seasonInput(form: SeasonForm): CreateSeasonInput {
  return {
    realityId: form.realityId,
    ...(form.number.trim() ? { number: Number(form.number) } : {}),
    year: Number(form.year),
    startDate: form.startDate || null,
    endDate: form.endDate || null,
    active: form.active,
  };
}

/** The server's order (spec admin §7, 'ordered by year then number'): by year, then number, ascending; then by reality. */
export function compareSeasons(a: SeasonView, b: SeasonView): number {
  return a.year - b.year || a.number - b.number || a.realityName.localeCompare(b.realityName, 'es');
}
