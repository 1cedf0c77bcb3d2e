import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { useSessionStore } from '../lib/session/sessionStore';
import { silenceActive } from '../lib/silence';
import { useMinuteClock } from '../lib/useMinuteClock';
import { AlertIcon } from './icons';

/**
 * The signed-in fan's silence by moderation, while it lasts ('Tu cuenta está silenciada hasta el
 * …'): above the composer. It goes away by itself once the time passes (checked every minute).
 */
export function SilenceBanner() {
  const until = useSessionStore((state) => state.user?.silencedUntil ?? null);
  const now = useMinuteClock();
  if (!silenceActive(until, now)) return null;
  return (
    <div
      role="status"
      className="flex items-start gap-2.5 rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-200"
    >
      <AlertIcon className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0">{MODERATION_MESSAGES.silenced(until)}</p>
    </div>
  );
}
