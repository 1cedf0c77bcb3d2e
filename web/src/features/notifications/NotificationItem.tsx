import { Link } from 'react-router-dom';
import type { NotificationEntry } from '@tribuna/contracts/api/notifications';
import { notificationText } from '@tribuna/contracts/notificationRules';
import { REACTIONS } from '@tribuna/contracts/wallRules';
import { Avatar } from '../../components/Avatar';
import { ShieldIcon } from '../../components/icons';
import { formatDateTime, relativeTime } from '../../lib/dates';
import { displayNameOf } from '../../lib/displayName';
import { postHref } from '../../lib/postHref';

/** The entry's sentence (notificationText), with the actor's name in bold where it appears. */
export function entrySentence(entry: NotificationEntry): { text: string; name: string } {
  const name = displayNameOf(entry.actor);
  return { name, text: notificationText({ type: entry.type, actorName: name, othersCount: entry.othersCount, reactionTypes: entry.reactionTypes }) };
}

function Sentence({ entry }: { entry: NotificationEntry }) {
  const { text, name } = entrySentence(entry);
  const at = text.indexOf(name);
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <strong className="font-semibold text-slate-900 dark:text-white">{name}</strong>
      {text.slice(at + name.length)}
    </>
  );
}

/** The reaction on the avatar's corner, when every reaction of the entry is the same. */
function reactionEmoji(entry: NotificationEntry): string | null {
  const kinds = [...new Set(entry.reactionTypes)];
  return kinds.length === 1 ? REACTIONS[kinds[0]!].emoji : null;
}

/** The outcome of the fan's report: the moderator who decided is never shown (no avatar, no link). */
const isReportOutcome = (entry: NotificationEntry) => entry.type === 'report_actioned' || entry.type === 'report_dismissed';

/** Where an entry leads: its post (comments open), for a follow the new follower's profile; a report's outcome nowhere. */
export const entryHref = (entry: NotificationEntry): string | null =>
  isReportOutcome(entry) ? null : entry.postId === null ? `/perfil/${entry.actor.id}` : postHref({ postId: entry.postId });

/**
 * One entry of /notificaciones: a link to the post (or a follower's profile) with the actor, the
 * sentence, the excerpt and the time; a report's outcome is no link and shows a shield, not the moderator.
 */
export function NotificationItem({ entry, now }: { entry: NotificationEntry; now: number }) {
  const emoji = reactionEmoji(entry);
  const unread = !entry.read;
  const href = entryHref(entry);
  const className = `flex items-start gap-3 rounded-2xl px-3 py-3 transition sm:px-4 ${
    unread ? 'bg-fuchsia-50 hover:bg-fuchsia-100/80 dark:bg-fuchsia-500/10 dark:hover:bg-fuchsia-500/15' : 'hover:bg-slate-100 dark:hover:bg-white/5'
  }`;
  const content = (
    <>
      <span className="relative shrink-0">
        {isReportOutcome(entry) ? (
          <span
            aria-hidden="true"
            className="inline-flex size-10 items-center justify-center rounded-full bg-slate-200 text-slate-700 dark:bg-white/10 dark:text-slate-200"
          >
            <ShieldIcon className="size-5" />
          </span>
        ) : (
          <Avatar name={displayNameOf(entry.actor)} src={entry.actor.avatarUrl} />
        )}
        {emoji && (
          <span
            aria-hidden="true"
            className="absolute -right-1 -bottom-1 inline-flex size-5 items-center justify-center rounded-full bg-white text-xs ring-1 ring-slate-200 dark:bg-ink-900 dark:ring-white/10"
          >
            {emoji}
          </span>
        )}
      </span>
      <span className="min-w-0 flex-1">
        <span className="block text-sm text-slate-700 dark:text-slate-200">
          <Sentence entry={entry} />
        </span>
        {entry.excerpt && <span className="mt-1 line-clamp-2 block text-sm break-words text-slate-600 dark:text-slate-400">“{entry.excerpt}”</span>}
        <time
          dateTime={entry.createdAt}
          title={formatDateTime(entry.createdAt)}
          className={`mt-1 block text-xs ${unread ? 'font-semibold text-fuchsia-700 dark:text-fuchsia-300' : 'text-slate-600 dark:text-slate-400'}`}
        >
          {relativeTime(entry.createdAt, now)}
        </time>
      </span>
      {unread && (
        <span className="mt-1.5 shrink-0">
          <span aria-hidden="true" className="block size-2.5 rounded-full bg-fuchsia-600 dark:bg-fuchsia-400" />
          <span className="sr-only">No leída</span>
        </span>
      )}
    </>
  );
  return (
    <li>
      {href === null ? (
        <div className={className}>{content}</div>
      ) : (
        <Link to={href} className={className}>
          {content}
        </Link>
      )}
    </li>
  );
}
