import { Link } from 'react-router-dom';
import type { ProfileComment } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { Avatar } from '../../components/Avatar';
import { errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { fetchProfileComments } from './api';
import { dateTimeText } from './format';
import { LoadMoreButton, TabEmpty, TabError, TabSkeleton } from './TabStates';
import { usePagedList } from './usePagedList';

function CommentRow({ comment }: { comment: ProfileComment }) {
  const author = comment.post.author;
  const authorName = displayNameOf(author);
  const profile = `/perfil/${author.id}`;
  return (
    <li>
      <article
        aria-label={`Comentario en la publicación de ${authorName}`}
        className="space-y-3 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10"
      >
        <blockquote className="rounded-2xl border-l-4 border-fuchsia-400 bg-slate-50 px-3 py-2 dark:border-fuchsia-500/60 dark:bg-white/5">
          <p className="flex items-center gap-2 text-xs">
            <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
              <Avatar name={authorName} src={author.avatarUrl} size="sm" className="size-6! text-xs!" />
            </Link>
            <Link to={profile} className="truncate rounded font-bold text-slate-700 hover:underline dark:text-slate-200">
              {authorName}
            </Link>
          </p>
          {comment.post.excerpt && (
            <p className="mt-1 line-clamp-3 text-sm break-words whitespace-pre-wrap text-slate-600 dark:text-slate-400">{comment.post.excerpt}</p>
          )}
        </blockquote>
        <p className="text-[15px] break-words whitespace-pre-wrap">{comment.content}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <time dateTime={comment.createdAt}>{dateTimeText(comment.createdAt)}</time>
          {comment.editedAt && <span> · Editado</span>}
        </p>
      </article>
    </li>
  );
}

/** Comentarios: the user's comments, pages of 20 with 'Cargar más', each under a quote of its post. */
export function CommentsTab({ userId, own }: { userId: string; own: boolean }) {
  const { state, loadMore, reload } = usePagedList((cursor, signal) => fetchProfileComments(userId, cursor, signal));

  if (state.status === 'loading') return <TabSkeleton label="Cargando comentarios…" />;
  if (state.status === 'error') return <TabError message={PROFILE_MESSAGES.commentsLoadFailed} onRetry={reload} />;
  if (state.items.length === 0) return <TabEmpty>{own ? PROFILE_MESSAGES.commentsEmptyOwn : PROFILE_MESSAGES.commentsEmptyOther}</TabEmpty>;
  return (
    <div className="space-y-4">
      <ul className="space-y-3" aria-label="Comentarios">
        {state.items.map((comment) => (
          <CommentRow key={comment.id} comment={comment} />
        ))}
      </ul>
      {state.moreError !== null && (
        <p role="alert" className="text-center text-sm font-medium text-rose-600 dark:text-rose-400">
          {errorMessage(state.moreError, PROFILE_MESSAGES.commentsLoadFailed)}
        </p>
      )}
      {state.nextCursor && <LoadMoreButton onClick={loadMore} loading={state.loadingMore} />}
    </div>
  );
}
