import { MODERATION_MESSAGES, formatSilencedUntil } from '@tribuna/contracts/moderationRules';
import { ApiError, callApi } from './api';
import { useSessionStore } from './session/sessionStore';

// The silence's 403 message up to its date ('Tu cuenta está silenciada hasta el …'): how a failed
// post, comment or reaction is told from other refusals.
const PROBE = '2026-01-01T00:00:00.000Z';
const SILENCED_PREFIX = MODERATION_MESSAGES.silenced(PROBE).slice(0, MODERATION_MESSAGES.silenced(PROBE).indexOf(formatSilencedUntil(PROBE)));

/** The server refused because the signed-in fan is silenced by moderation. */
export function isSilencedError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 403 && SILENCED_PREFIX.length > 0 && error.message.startsWith(SILENCED_PREFIX);
}

/**
 * After a failed post, comment or reaction: when the server said the fan is silenced, reads their
 * profile again, so the silence banner (components/SilenceBanner) shows until when even though the
 * silence began after the page loaded. Anything else is left alone.
 */
export function noteSilenced(error: unknown): void {
  if (!isSilencedError(error)) return;
  callApi('me').then(
    (profile) => useSessionStore.getState().replaceProfile(profile),
    (failure: unknown) => console.debug('No se pudo leer el perfil', failure),
  );
}

/** Whether a silence until `untilIso` (me.silencedUntil) still holds at `now`. */
export const silenceActive = (untilIso: string | null | undefined, now: number): untilIso is string =>
  typeof untilIso === 'string' && Date.parse(untilIso) > now;
