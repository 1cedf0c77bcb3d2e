import { useState, type Dispatch } from 'react';
import { Link } from 'react-router-dom';
import type { CreatedComment, ReplyView } from '@tribuna/contracts/api/wall';
import { WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { Avatar } from '../../components/Avatar';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/api';
import { relativeTime } from '../../lib/dates';
import { displayNameOf } from '../../lib/displayName';
import { openReport, useCanReport } from '../../lib/reports';
import { useSessionStore } from '../../lib/session/sessionStore';
import { noteSilenced } from '../../lib/silence';
import { deleteComment, editComment, reactToComment } from './api';
import { CommentForm } from './CommentForm';
import type { CommentsAction, CommentsState } from './commentsState';
import { ConfirmDialog } from './ConfirmDialog';
import { applyMyReaction, toggledReaction } from './feedState';
import { HiddenByModeration } from './HiddenByModeration';
import { HeartIcon } from './icons';
import { ItemMenu } from './ItemMenu';
import { permissionsFor } from './permissions';
import { useGroupModerator } from './groupModeration';
import { useMinuteClock } from '../../lib/useMinuteClock';
import { TileImage } from './TileImage';
import { validateEdit } from './validation';

interface CommentsSectionProps {
  postId: string;
  state: CommentsState;
  dispatch: Dispatch<CommentsAction>;
  /** The post's new comment count (after a create or delete). */
  onCount: (commentCount: number) => void;
  onRetry: () => void;
}

/** The comments of a post: the first 3, then 'Ver más comentarios'; the form for a new one. */
export function CommentsSection({ postId, state, dispatch, onCount, onRetry }: CommentsSectionProps) {
  const [expanded, setExpanded] = useState(false);
  const signedIn = useSessionStore((s) => s.user !== null);
  const shown = expanded ? state.comments : state.comments.slice(0, WALL_LIMITS.commentsShown);
  const hidden = state.comments.length - WALL_LIMITS.commentsShown;

  function onCreated(created: CreatedComment) {
    dispatch({ type: 'add', comment: created.comment });
    onCount(created.commentCount);
  }

  return (
    <section aria-label="Comentarios" className="space-y-3 border-t border-slate-200 pt-3 dark:border-white/10">
      {state.status === 'loading' && <Spinner label="Cargando comentarios…" className="py-3 [&>span:first-child]:size-6" />}
      {state.status === 'error' && (
        <p role="alert" className="text-sm text-rose-600 dark:text-rose-400">
          Error al cargar los comentarios.{' '}
          <button type="button" onClick={onRetry} className="font-semibold underline">
            Reintentar
          </button>
        </p>
      )}
      {state.status === 'ready' && (
        <>
          {state.comments.length > 0 && (
            <ul className="space-y-3">
              {shown.map((comment) => (
                <li key={comment.id}>
                  <CommentItem comment={comment} postId={postId} dispatch={dispatch} onCount={onCount} topLevel />
                  {comment.replies.length > 0 && (
                    <ul
                      className="mt-2 ml-10 space-y-2 border-l-2 border-slate-200 pl-3 dark:border-white/10"
                      aria-label={`Respuestas a ${displayNameOf(comment.author)}`}
                    >
                      {comment.replies.map((reply) => (
                        <li key={reply.id}>
                          <CommentItem comment={reply} postId={postId} dispatch={dispatch} onCount={onCount} topLevel={false} />
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              ))}
            </ul>
          )}
          {hidden > 0 && (
            <button
              type="button"
              onClick={() => setExpanded((v) => !v)}
              aria-expanded={expanded}
              className="text-sm font-semibold text-fuchsia-700 hover:underline dark:text-fuchsia-300"
            >
              {expanded ? 'Ver menos' : `Ver más comentarios (${hidden} más)`}
            </button>
          )}
        </>
      )}
      {signedIn && <CommentForm postId={postId} parentCommentId={null} onCreated={onCreated} />}
    </section>
  );
}

interface CommentItemProps {
  comment: ReplyView;
  postId: string;
  dispatch: Dispatch<CommentsAction>;
  onCount: (commentCount: number) => void;
  topLevel: boolean;
}

const smallButton = 'rounded-full px-2 py-1 text-xs font-semibold hover:bg-slate-100 dark:hover:bg-white/10 disabled:opacity-50';

/** One comment or reply: author, time, text and image, Me gusta, Responder (top level), its menu. */
function CommentItem({ comment, postId, dispatch, onCount, topLevel }: CommentItemProps) {
  const viewer = useSessionStore((s) => s.user);
  const now = useMinuteClock();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.content);
  const [replying, setReplying] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = displayNameOf(comment.author);
  const moderates = useGroupModerator();
  const permissions = permissionsFor(viewer, comment.author.id, moderates);
  const canReport = useCanReport('comment', comment.id, comment.author.id);
  const liked = comment.myReaction === 'like';

  async function toggleLike() {
    if (!viewer) return;
    const before = { reactions: comment.reactions, myReaction: comment.myReaction };
    const next = toggledReaction(comment.myReaction, 'like');
    dispatch({ type: 'reactions', commentId: comment.id, reactions: applyMyReaction(comment.reactions, comment.myReaction, next), myReaction: next });
    setError(null);
    try {
      const state = await reactToComment(comment.id, 'like');
      dispatch({ type: 'reactions', commentId: comment.id, reactions: state.reactions, myReaction: state.myReaction });
    } catch (failure) {
      console.debug('Error al reaccionar', failure);
      dispatch({ type: 'reactions', commentId: comment.id, ...before });
      setError(errorMessage(failure, 'No se pudo guardar tu reacción'));
      noteSilenced(failure);
    }
  }

  async function saveEdit() {
    const problem = validateEdit(draft, WALL_LIMITS.commentText, WALL_MESSAGES.commentTooLong);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const updated = await editComment(comment.id, draft.trim());
      dispatch({ type: 'edit', commentId: comment.id, content: updated.content, editedAt: updated.editedAt });
      setEditing(false);
    } catch (failure) {
      console.debug(WALL_MESSAGES.editCommentFailed, failure);
      setError(WALL_MESSAGES.editCommentFailed);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      const result = await deleteComment(comment.id);
      setConfirming(false);
      dispatch({ type: 'remove', commentId: comment.id });
      onCount(result.commentCount);
    } catch (failure) {
      console.debug('Error al eliminar el comentario', failure);
      setConfirming(false);
      setError(errorMessage(failure, 'No se pudo eliminar el comentario'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <article aria-label={`Comentario de ${name}`} className="flex gap-2.5">
      <Link to={`/perfil/${comment.author.id}`} tabIndex={-1} aria-hidden="true" className="shrink-0">
        <Avatar name={name} src={comment.author.avatarUrl} size="sm" />
      </Link>
      <div className="min-w-0 flex-1">
        <div className="rounded-2xl bg-slate-100 px-3 py-2 dark:bg-white/5">
          {comment.hiddenByModeration && <HiddenByModeration compact />}
          <div className="flex items-start justify-between gap-2">
            <p className="min-w-0 text-sm">
              <Link to={`/perfil/${comment.author.id}`} className="font-bold hover:underline">
                {name}
              </Link>{' '}
              <time dateTime={comment.createdAt} className="text-xs text-slate-500 dark:text-slate-400">
                {relativeTime(comment.createdAt, now)}
              </time>
              {comment.editedAt && <span className="ml-1 text-xs text-slate-500 dark:text-slate-400">· Editado</span>}
            </p>
            {!editing && (
              <ItemMenu
                label="Opciones del comentario"
                onEdit={
                  permissions.canEdit
                    ? () => {
                        setDraft(comment.content);
                        setEditing(true);
                      }
                    : null
                }
                deleteLabel={permissions.asAdmin ? 'Eliminar Admin' : 'Eliminar'}
                onDelete={permissions.canDelete ? () => setConfirming(true) : null}
                onReport={canReport ? () => openReport({ targetType: 'comment', targetId: comment.id, name }) : null}
              />
            )}
          </div>
          {editing ? (
            <div className="mt-1 space-y-2">
              <textarea
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                aria-label="Editar comentario"
                rows={2}
                autoFocus
                className="w-full rounded-xl bg-white px-3 py-2 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-ink-900"
              />
              <div className="flex gap-2">
                <button
                  type="button"
                  onClick={saveEdit}
                  disabled={busy}
                  className="rounded-full bg-fuchsia-600 px-3 py-1 text-xs font-bold text-white hover:bg-fuchsia-700 disabled:opacity-60"
                >
                  Guardar
                </button>
                <button type="button" onClick={() => setEditing(false)} className={smallButton}>
                  Cancelar
                </button>
              </div>
            </div>
          ) : (
            comment.content && <p className="text-sm break-words whitespace-pre-wrap">{comment.content}</p>
          )}
          {comment.media && <TileImage media={comment.media} className="mt-2 h-auto max-h-60 w-auto max-w-full rounded-xl object-cover" />}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-400">
          <button
            type="button"
            onClick={toggleLike}
            disabled={!viewer}
            aria-pressed={liked}
            aria-label={`Me gusta${comment.reactions.like ? ` (${comment.reactions.like})` : ''}`}
            className={`${smallButton} inline-flex items-center gap-1 ${liked ? 'text-fuchsia-600 dark:text-fuchsia-400' : ''}`}
          >
            <HeartIcon className={`size-3.5 ${liked ? 'fill-current' : ''}`} />
            Me gusta{comment.reactions.like > 0 && <span className="tabular-nums">· {comment.reactions.like}</span>}
          </button>
          {topLevel && viewer && (
            <button type="button" onClick={() => setReplying((v) => !v)} aria-expanded={replying} className={smallButton}>
              Responder
            </button>
          )}
        </div>
        {error && (
          <p role="alert" className="px-2 text-xs font-medium text-rose-600 dark:text-rose-400">
            {error}
          </p>
        )}
        {replying && (
          <div className="mt-2">
            <CommentForm
              postId={postId}
              parentCommentId={comment.id}
              autoFocus
              onCancel={() => setReplying(false)}
              onCreated={(created) => {
                dispatch({ type: 'add', comment: created.comment });
                onCount(created.commentCount);
                setReplying(false);
              }}
            />
          </div>
        )}
      </div>
      {confirming && (
        <ConfirmDialog title="¿Eliminar este comentario?" confirmLabel="Eliminar" busy={busy} onConfirm={remove} onCancel={() => setConfirming(false)} />
      )}
    </article>
  );
}
