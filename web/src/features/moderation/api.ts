import type { ReportInput } from '@tribuna/contracts/api/moderation';
import { callApi } from '../../lib/api';

/** POST /api/reports: 'Gracias, revisaremos tu reporte' (409 when the fan already reported it). */
export const createReport = (body: ReportInput) => callApi('createReport', { body });

export type SafetyListKind = 'muted' | 'blocked';

/** One page of the people the viewer muted or blocked, newest first; `cursor` is the previous page's nextCursor. */
export const fetchSafetyList = (kind: SafetyListKind, cursor: string | null, signal?: AbortSignal) =>
  callApi(kind === 'muted' ? 'mutedUsers' : 'blockedUsers', { query: { cursor: cursor ?? undefined }, signal });

/** 'Quitar' on a settings' row: unmute or unblock (DELETE, idempotent). */
export const removeFromSafetyList = (kind: SafetyListKind, userId: string) => callApi(kind === 'muted' ? 'unmuteUser' : 'unblockUser', { params: { userId } });
