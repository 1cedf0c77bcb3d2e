import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { AlertIcon } from '../../components/icons';

/**
 * 'Oculto por moderación': the author's own post or comment that a moderator hid (nobody else sees
 * it any more). `compact`: the comment's smaller line.
 */
export function HiddenByModeration({ compact = false }: { compact?: boolean }) {
  return (
    <p
      className={`flex items-center gap-1.5 font-semibold text-amber-900 dark:text-amber-200 ${
        compact ? 'mb-1 text-xs' : 'rounded-2xl bg-amber-50 px-3 py-2 text-sm ring-1 ring-amber-300 dark:bg-amber-400/10 dark:ring-amber-400/40'
      }`}
    >
      <AlertIcon className={compact ? 'size-3.5 shrink-0' : 'size-4 shrink-0'} />
      {MODERATION_MESSAGES.hiddenByModeration}
    </p>
  );
}
