import { useCallback, useEffect, useRef, useState } from 'react';
import type { SharePlatform } from '@tribuna/contracts/api/shares';
import { ApiError, errorMessage } from '../../../lib/api';
import { recordShare } from './api';

export const ALREADY_SHARED = 'Ya compartiste esta encuesta hoy';
export const CLOSED_POLL_SHARED = 'Esta votación ya cerró: compartirla no suma puntos.';
const TOAST_MS = 4000;

export type ShareToast = { tone: 'success' | 'info'; text: string } | null;

/**
 * Records shares of signed-in users (the bonus) and says how it went: '+5 puntos por compartir',
 * that a closed poll's share earns nothing, 'Ya compartiste esta encuesta hoy' (409), or the rate
 * limit's message (429: no bonus this time).
 * Visitors share without a record. Other failures are only logged: the link went out anyway.
 */
export function useShareReward(pollId: string, signedIn: boolean) {
  const [toast, setToast] = useState<ShareToast>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const show = useCallback((next: ShareToast) => {
    if (timer.current) clearTimeout(timer.current);
    setToast(next);
    timer.current = setTimeout(() => setToast(null), TOAST_MS);
  }, []);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const reward = useCallback(
    async (platform: SharePlatform) => {
      if (!signedIn) return;
      try {
        const { pointsEarned, bonusAwarded, noBonusReason } = await recordShare(pollId, platform);
        if (bonusAwarded && pointsEarned > 0) {
          show({ tone: 'success', text: `+${pointsEarned} ${pointsEarned === 1 ? 'punto' : 'puntos'} por compartir` });
        } else {
          show({ tone: 'info', text: noBonusReason === 'poll-closed' ? CLOSED_POLL_SHARED : '¡Gracias por compartir!' });
        }
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) {
          show({ tone: 'info', text: ALREADY_SHARED });
          return;
        }
        if (error instanceof ApiError && error.status === 429) {
          show({ tone: 'info', text: errorMessage(error, '') });
          return;
        }
        console.error('No se pudo registrar el compartido', error);
      }
    },
    [pollId, signedIn, show],
  );

  return { toast, reward };
}
