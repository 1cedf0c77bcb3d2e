import { GROUP_LIMITS, GROUP_MESSAGES, type GroupPrivacy } from '@tribuna/contracts/groupRules';

export interface GroupForm {
  name: string;
  description: string;
  privacy: GroupPrivacy;
}

/** Length as the server counts it (code points: an emoji is one character). */
export const textLength = (text: string) => Array.from(text).length;

/** The same checks the server makes, with its messages (texts trimmed). */
export function groupFormProblems(form: GroupForm): Partial<Record<'name' | 'description', string>> {
  const problems: Partial<Record<'name' | 'description', string>> = {};
  const name = textLength(form.name.trim());
  if (name < GROUP_LIMITS.nameMin || name > GROUP_LIMITS.nameMax) problems.name = GROUP_MESSAGES.nameLength;
  if (textLength(form.description.trim()) > GROUP_LIMITS.description) problems.description = GROUP_MESSAGES.descriptionTooLong;
  return problems;
}
