import type { ContestantView, CreateContestantInput } from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_MESSAGES, STATUSES_WITH_ELIMINATION_DATE, STATUSES_WITH_FINAL_POSITION, type ContestantStatus } from '@tribuna/contracts/adminRules';

/** The contestant form's values, as typed (strings for the optional fields). */
export interface ContestantFormValues {
  seasonId: string;
  fullName: string;
  photoUrl: string;
  status: ContestantStatus;
  eliminationDate: string;
  finalPosition: string;
}

export type ContestantFormErrors = Partial<Record<'seasonId' | 'fullName' | 'photoUrl' | 'finalPosition', string>>;

export const showsEliminationDate = (status: ContestantStatus) => STATUSES_WITH_ELIMINATION_DATE.includes(status);
export const showsFinalPosition = (status: ContestantStatus) => STATUSES_WITH_FINAL_POSITION.includes(status);

/** Where the server keeps uploaded photos: such a URL is accepted as is. */
export const isUploadedPhotoUrl = (url: string) => url.startsWith('/media/');

export function emptyContestant(seasonId = ''): ContestantFormValues {
  return { seasonId, fullName: '', photoUrl: '', status: 'active', eliminationDate: '', finalPosition: '' };
}

export function valuesOf(contestant: ContestantView): ContestantFormValues {
  return {
    seasonId: contestant.seasonId,
    fullName: contestant.fullName,
    photoUrl: contestant.photoUrl ?? '',
    status: contestant.status,
    eliminationDate: contestant.eliminationDate ?? '',
    finalPosition: contestant.finalPosition === null ? '' : String(contestant.finalPosition),
  };
}

function isHttpsUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The form's checks (spec §5 Contestant form), one message per failing field. */
export function validateContestant(values: ContestantFormValues): ContestantFormErrors {
  const errors: ContestantFormErrors = {};
  if (!values.seasonId) errors.seasonId = ADMIN_MESSAGES.contestantSeasonRequired;
  if (!values.fullName.trim()) errors.fullName = ADMIN_MESSAGES.contestantNameRequired;
  const photo = values.photoUrl.trim();
  if (photo && !isUploadedPhotoUrl(photo) && !isHttpsUrl(photo)) errors.photoUrl = ADMIN_MESSAGES.photoUrlInvalid;
  const position = values.finalPosition.trim();
  if (showsFinalPosition(values.status) && position && (!/^\d+$/.test(position) || Number(position) < 1 || !Number.isSafeInteger(Number(position)))) {
    errors.finalPosition = ADMIN_MESSAGES.finalPositionInvalid;
  }
  return errors;
}

/** What is sent: trimmed texts, empty optional fields (and fields the status does not carry) as null. */
export function contestantInput(values: ContestantFormValues): CreateContestantInput {
  const photo = values.photoUrl.trim();
  const position = values.finalPosition.trim();
  return {
    seasonId: values.seasonId,
    fullName: values.fullName.trim(),
    photoUrl: photo || null,
    status: values.status,
    eliminationDate: showsEliminationDate(values.status) && values.eliminationDate ? values.eliminationDate : null,
    finalPosition: showsFinalPosition(values.status) && position ? Number(position) : null,
  };
}
