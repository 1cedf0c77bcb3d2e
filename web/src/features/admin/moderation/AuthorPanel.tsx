import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { ModeratedAuthor } from '@tribuna/contracts/api/moderation';
import { MODERATION_ACTION_DONE_LABELS, MODERATION_QUEUE_TEXTS, REPORT_TARGET_LABELS } from '@tribuna/contracts/moderationRules';
import { Avatar } from '../../../components/Avatar';
import { StatusBadge } from '../../../components/admin/StatusBadge';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { displayNameOf } from '../../../lib/displayName';

/**
 * The reported item's author, to judge them by: who, since when, suspended or silenced, how many
 * reports they received, and the latest actions taken on their items or account.
 */
export function AuthorPanel({ author }: { author: ModeratedAuthor }) {
  const headingId = useId();
  const name = displayNameOf(author);
  return (
    // A group, not a region: the same author may head several items, and landmarks must differ.
    <div role="group" aria-labelledby={headingId} className="min-w-0 space-y-3 self-start rounded-2xl p-3 ring-1 ring-slate-200 sm:p-4 dark:ring-white/10">
      <h4 id={headingId} className="text-xs font-bold tracking-wide text-slate-600 uppercase dark:text-slate-400">
        {MODERATION_QUEUE_TEXTS.author}
      </h4>
      <div className="flex items-center gap-3">
        <Avatar name={name} src={author.avatarUrl} />
        <div className="min-w-0">
          <Link to={`/perfil/${author.id}`} className="block truncate font-bold hover:underline">
            {name}
          </Link>
          {author.username && <p className="truncate text-sm text-slate-600 dark:text-slate-400">@{author.username}</p>}
        </div>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">{MODERATION_QUEUE_TEXTS.accountCreated(formatDate(author.createdAt))}</p>
      {(author.isSuspended || author.silencedUntil) && (
        <p className="flex flex-wrap gap-2">
          {author.isSuspended && <StatusBadge tone="rose">{MODERATION_QUEUE_TEXTS.suspended}</StatusBadge>}
          {author.silencedUntil && (
            <StatusBadge tone="amber" className="whitespace-normal!">
              {MODERATION_QUEUE_TEXTS.silencedUntil(author.silencedUntil)}
            </StatusBadge>
          )}
        </p>
      )}
      <p className="text-sm font-semibold">{MODERATION_QUEUE_TEXTS.reportsReceived(author.reportsReceived)}</p>
      <div>
        <p className="text-sm font-semibold">{MODERATION_QUEUE_TEXTS.history}</p>
        {author.history.length === 0 ? (
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{MODERATION_QUEUE_TEXTS.noHistory}</p>
        ) : (
          <ul aria-label={`${MODERATION_QUEUE_TEXTS.history} de ${name}`} className="mt-1 space-y-1.5">
            {author.history.map((entry, index) => (
              <li key={`${entry.at}-${index}`} className="text-sm">
                <span className="font-semibold">{MODERATION_ACTION_DONE_LABELS[entry.action]}</span>
                <span className="text-slate-600 dark:text-slate-400">
                  {' · '}
                  {REPORT_TARGET_LABELS[entry.targetType]} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
                </span>
                {entry.reason && <span className="block break-words text-slate-600 italic dark:text-slate-400">«{entry.reason}»</span>}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
