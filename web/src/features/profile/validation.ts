import { PROFILE_LIMITS, PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';

/** Length as the server counts it (code points: an emoji is one character). */
export const textLength = (text: string) => Array.from(text).length;

export { imageFileProblem } from '../../lib/profileImages';

export function displayNameProblem(value: string): string | null {
  const name = value.trim();
  if (!name) return PROFILE_MESSAGES.nameEmpty;
  if (textLength(name) > PROFILE_LIMITS.displayName) return PROFILE_MESSAGES.nameTooLong;
  return null;
}

/** An empty username is allowed (it clears it); otherwise 3-20 of a-z, 0-9 and _. */
export function usernameProblem(value: string): string | null {
  const username = value.trim();
  if (!username) return null;
  if (!/^[a-z0-9_]+$/.test(username)) return PROFILE_MESSAGES.usernameChars;
  if (username.length < PROFILE_LIMITS.usernameMin) return PROFILE_MESSAGES.usernameTooShort;
  if (username.length > PROFILE_LIMITS.usernameMax) return PROFILE_MESSAGES.usernameTooLong;
  return null;
}

export function bioProblem(value: string): string | null {
  return textLength(value.trim()) > PROFILE_LIMITS.bio ? PROFILE_MESSAGES.bioTooLong : null;
}

export interface ProfileForm {
  displayName: string;
  username: string;
  bio: string;
}

export type FormProblems = Partial<Record<keyof ProfileForm, string>>;

/** Every field's problem (none: an empty object). */
export function formProblems(form: ProfileForm): FormProblems {
  const problems: FormProblems = {};
  const name = displayNameProblem(form.displayName);
  const username = usernameProblem(form.username);
  const bio = bioProblem(form.bio);
  if (name) problems.displayName = name;
  if (username) problems.username = username;
  if (bio) problems.bio = bio;
  return problems;
}
