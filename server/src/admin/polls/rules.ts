import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminPollView, PollOptionInput } from '@tribuna/contracts/api/admin/polls';
import { badRequest } from '../../http/errors.ts';

// The poll form's rules (spec admin-backoffice.md §4, §5, §9), checked again on the server.

export const TITLE_TOO_LONG = `El título no puede tener más de ${ADMIN_LIMITS.pollTitle} caracteres`;
export const OPTION_TOO_LONG = `Cada opción puede tener hasta ${ADMIN_LIMITS.optionText} caracteres`;
export const TOTAL_POINTS_MAX = `El total de puntos no puede ser mayor que ${ADMIN_LIMITS.maxTotalPoints}`;
export const END_DATE_INVALID = 'La fecha de cierre no es válida';
export const END_DATE_PAST = 'La fecha de cierre debe ser posterior a la fecha actual';
export const CONTESTANT_OPTION_CHANGED = 'No se puede cambiar el concursante de una opción existente';
export const DUPLICATE_OPTION = 'La misma opción aparece dos veces';

export function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length === 0) throw badRequest(ADMIN_MESSAGES.pollTitleRequired);
  if ([...trimmed].length > ADMIN_LIMITS.pollTitle) throw badRequest(TITLE_TOO_LONG);
  return trimmed;
}

export function cleanDescription(description: string | null | undefined): string | null {
  const trimmed = description?.trim() ?? '';
  return trimmed.length === 0 ? null : trimmed;
}

/** The countdown's closing date: null without one; a new one must lie in the future. */
export function cleanEndDate(value: string | null | undefined, now: Date, unchanged?: Date | null): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw badRequest(END_DATE_INVALID);
  if (unchanged && unchanged.getTime() === date.getTime()) return date;
  if (date.getTime() <= now.getTime()) throw badRequest(END_DATE_PAST);
  return date;
}

/** Points mode: the total to distribute, ≥ 2 (default 10), with a daily reset (default on). */
export function pointsConfig(
  voteMode: AdminPollView['voteMode'],
  maxPointsPerUser: number | undefined,
  dailyReset: boolean | undefined,
  current?: { maxPointsPerUser: number; dailyReset: boolean },
): { maxPointsPerUser: number; dailyReset: boolean } {
  if (voteMode === 'single') {
    // The vote mode is locked: a total above 1 would turn a single-choice poll into a points poll.
    if (current && maxPointsPerUser !== undefined && maxPointsPerUser !== 1) throw badRequest(ADMIN_MESSAGES.pollLocked);
    return { maxPointsPerUser: 1, dailyReset: false };
  }
  const total = maxPointsPerUser ?? current?.maxPointsPerUser ?? ADMIN_LIMITS.defaultTotalPoints;
  if (total < ADMIN_LIMITS.minTotalPoints) throw badRequest(ADMIN_MESSAGES.totalPointsMin);
  if (total > ADMIN_LIMITS.maxTotalPoints) throw badRequest(TOTAL_POINTS_MAX);
  return { maxPointsPerUser: total, dailyReset: dailyReset ?? current?.dailyReset ?? true };
}

/** An option of the form after cleaning: a contestant or a non-blank trimmed text, maybe an existing id. */
export type CleanOption = { id?: string; contestantId: string; text: null } | { id?: string; contestantId: null; text: string };

export const minOptionsMessage = (type: AdminPollView['optionType']) => (type === 'contestants' ? ADMIN_MESSAGES.minContestants : ADMIN_MESSAGES.minOptions);

/**
 * The form's options as they will be stored, in order: custom texts trimmed with blanks left out
 * (the form starts with two blank ones), contestants without repeats. Each option must be of the
 * poll's type: `onWrongType` is the error (on creation the type's minimum, on edit the lock).
 * At least ADMIN_LIMITS.minOptions remain.
 */
export function cleanOptions(type: AdminPollView['optionType'], inputs: PollOptionInput[], onWrongType: string): CleanOption[] {
  const options: CleanOption[] = [];
  const contestants = new Set<string>();
  const ids = new Set<string>();
  for (const input of inputs) {
    if (input.id !== undefined) {
      if (ids.has(input.id)) throw badRequest(DUPLICATE_OPTION);
      ids.add(input.id);
    }
    if ('contestantId' in input) {
      if (type !== 'contestants') throw badRequest(onWrongType);
      if (contestants.has(input.contestantId)) continue;
      contestants.add(input.contestantId);
      options.push({ ...(input.id ? { id: input.id } : {}), contestantId: input.contestantId, text: null });
    } else {
      if (type !== 'custom') throw badRequest(onWrongType);
      const text = input.text.trim();
      if (text.length === 0) continue;
      if ([...text].length > ADMIN_LIMITS.optionText) throw badRequest(OPTION_TOO_LONG);
      options.push({ ...(input.id ? { id: input.id } : {}), contestantId: null, text });
    }
  }
  if (options.length < ADMIN_LIMITS.minOptions) throw badRequest(minOptionsMessage(type));
  return options;
}
