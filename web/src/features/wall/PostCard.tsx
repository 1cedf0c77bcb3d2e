import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { PostView } from '@tribuna/contracts/api/wall';
import { postTopic } from '@tribuna/contracts/liveTopics';
import { WALL_LIMITS, WALL_MESSAGES, type PostVisibility, type ReactionType } from '@tribuna/contracts/wallRules';
import { Alert } from '../../components/Alert';
import { Avatar } from '../../components/Avatar';
import { UsersIcon } from '../../components/icons';
import { ApiError, errorMessage } from '../../lib/api';
import { relativeTime } from '../../lib/dates';
import { liveClient } from '../../lib/live/liveClient';
import { displayNameOf } from '../../lib/displayName';
import { openReport, useCanReport } from '../../lib/reports';
import { useSessionStore } from '../../lib/session/sessionStore';
import { noteSilenced } from '../../lib/silence';
import { deletePost, editPost, fetchComments, fetchPost, pinPost, reactToPost } from './api';
import { CommentsSection } from './Comments';
import { commentsReducer, initialCommentsState } from './commentsState';
import { ConfirmDialog } from './ConfirmDialog';
import { applyMyReaction, toggledReaction } from './feedState';
import { CommentIcon } from './icons';
import { HiddenByModeration } from './HiddenByModeration';
import { ImageGrid } from './ImageGrid';
import { ItemMenu } from './ItemMenu';
import { livePostSlots } from './liveSlots';
import { permissionsFor } from './permissions';
import { useGroupModerator } from './groupModeration';
import { postLiveHandler } from './postLive';
import { ReactionCountsList, ReactionPicker } from './ReactionPicker';
import { useMinuteClock } from '../../lib/useMinuteClock';
import { useFeedDispatch } from './useFeed';
import { useOnScreen } from './useOnScreen';
import { validateEdit } from './validation';
import { useLatest } from '../../lib/useLatest';

export const commentCountLabel = (n: number) => (n === 1 ? '1 comentario' : `${n} comentarios`);

export const VISIBILITY_LABELS: Record<PostVisibility, string> = { public: 'Público', followers: 'Seguidores', group: 'Grupo' };

const badgeClass = 'inline-flex items-center rounded-full px-2 py-0.5 text-[11px] font-bold';

/** 'Fijado': a group's pinned post (on its wall and on profiles). */
function PinnedBadge() {
  return <span className={`${badgeClass} bg-amber-100 text-amber-800 dark:bg-amber-400/15 dark:text-amber-300`}>Fijado</span>;
}

/** ' · Seguidores' beside the time: a followers-only post (the profile's cards say it with their badge). */
function FollowersOnlyMark() {
  return (
    <>
      {' · '}
      <span title="Solo para seguidores" className="inline-flex items-center gap-0.5 align-bottom">
        <UsersIcon className="size-3.5" />
        Seguidores
      </span>
    </>
  );
}

/** A profile's extras: the group ('En {group}'), 'Fijado' and the visibility badge. */
function PostDetails({ post }: { post: PostView }) {
  return (
    <p className="mt-1 flex flex-wrap items-center gap-1.5">
      {post.groupName && <span className="text-xs font-semibold text-slate-600 dark:text-slate-300">En {post.groupName}</span>}
      {post.isPinned && <PinnedBadge />}
      <span className={`${badgeClass} bg-slate-100 text-slate-700 dark:bg-white/10 dark:text-slate-300`}>{VISIBILITY_LABELS[post.visibility]}</span>
    </p>
  );
}

/**
 * One post of a feed: author, time, text, images, reactions, comments, and the owner/admin menu.
 * `details`: also the group, 'Fijado' and the visibility badge (a profile's posts tab).
 * `openComments`: the comments start open and load at once (the wall's focused post, `?post=`).
 */
export function PostCard({ post, details = false, openComments = false }: { post: PostView; details?: boolean; openComments?: boolean }) {
  const feed = useFeedDispatch();
  const viewer = useSessionStore((s) => s.user);
  const now = useMinuteClock();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(post.content);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [editError, setEditError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [commentsOpen, setCommentsOpen] = useState(openComments);
  const [comments, commentsDispatch] = useReducer(commentsReducer, initialCommentsState);
  const ref = useRef<HTMLElement>(null);
  const visible = useOnScreen(ref);
  const name = displayNameOf(post.author);
  const moderates = useGroupModerator() && post.groupId !== null;
  const permissions = permissionsFor(viewer, post.author.id, moderates);
  const postId = post.id;
  const canReport = useCanReport('post', postId, post.author.id);

  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const loadComments = useCallback(async () => {
    commentsDispatch({ type: 'loading' });
    try {
      const list = await fetchComments(postId);
      if (!mounted.current) return;
      commentsDispatch({ type: 'loaded', comments: list.comments });
      feed({ type: 'patch', postId, patch: { commentCount: list.commentCount } });
    } catch (failure) {
      console.debug('Error al cargar los comentarios', failure);
      if (mounted.current) commentsDispatch({ type: 'failed' });
    }
  }, [feed, postId]);

  // Comments open from the start: load them once.
  const initialLoad = useRef(openComments);
  useEffect(() => {
    if (!initialLoad.current) return;
    initialLoad.current = false;
    void loadComments();
  }, [loadComments]);

  // What the live handler reads at the time a message arrives.
  const latest = useLatest({ commentsOpen, loadComments });

  // Watch `post:{id}` while the card is on screen (a few at a time; see liveSlots).
  useEffect(() => {
    if (!visible) return;
    let unsubscribe: (() => void) | null = null;
    const handler = postLiveHandler({
      postId,
      feed,
      comments: () => (latest.current.commentsOpen ? commentsDispatch : null),
      refetch: async () => {
        try {
          const fresh = await fetchPost(postId);
          feed({ type: 'replace', post: fresh });
        } catch (failure) {
          if (failure instanceof ApiError && failure.status === 404) {
            feed({ type: 'remove', postId });
            return;
          }
          throw failure;
        }
        if (latest.current.commentsOpen) await latest.current.loadComments();
      },
    });
    const release = livePostSlots.acquire(() => {
      unsubscribe = liveClient.subscribe(postTopic(postId), handler);
    });
    return () => {
      unsubscribe?.();
      release();
    };
  }, [visible, postId, feed, latest]);

  function toggleComments() {
    const open = !commentsOpen;
    setCommentsOpen(open);
    if (open && comments.status !== 'ready') void loadComments();
  }

  async function react(type: ReactionType) {
    const before = { reactions: post.reactions, myReaction: post.myReaction };
    const next = toggledReaction(post.myReaction, type);
    feed({ type: 'reactions', postId, reactions: applyMyReaction(post.reactions, post.myReaction, next), myReaction: next });
    setError(null);
    try {
      const state = await reactToPost(postId, type);
      feed({ type: 'reactions', postId, reactions: state.reactions, myReaction: state.myReaction });
    } catch (failure) {
      console.debug('Error al reaccionar', failure);
      feed({ type: 'reactions', postId, ...before });
      setError(errorMessage(failure, 'No se pudo guardar tu reacción'));
      noteSilenced(failure);
    }
  }

  async function saveEdit() {
    const problem = validateEdit(draft, WALL_LIMITS.postText, WALL_MESSAGES.postTooLong);
    if (problem) return setEditError(problem);
    setBusy(true);
    setEditError(null);
    try {
      const updated = await editPost(postId, draft.trim());
      feed({ type: 'patch', postId, patch: { content: updated.content, editedAt: updated.editedAt } });
      setEditing(false);
    } catch (failure) {
      console.debug(WALL_MESSAGES.editPostFailed, failure);
      setEditError(WALL_MESSAGES.editPostFailed);
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      await deletePost(postId);
      setConfirming(false);
      feed({ type: 'remove', postId });
    } catch (failure) {
      console.debug('Error al eliminar la publicación', failure);
      setConfirming(false);
      setError(errorMessage(failure, 'No se pudo eliminar la publicación'));
      setBusy(false);
    }
  }

  async function togglePin() {
    const pinned = !post.isPinned;
    setError(null);
    try {
      const state = await pinPost(postId, pinned);
      feed({ type: 'pin', post, pinned: state.isPinned });
    } catch (failure) {
      console.debug('Error al fijar la publicación', failure);
      setError(errorMessage(failure, pinned ? 'No se pudo fijar la publicación' : 'No se pudo desfijar la publicación'));
    }
  }

  const profile = `/perfil/${post.author.id}`;
  return (
    <article
      ref={ref}
      aria-label={`Publicación de ${name}`}
      className="space-y-3 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 sm:p-5 dark:bg-ink-900 dark:ring-white/10"
    >
      <header className="flex items-start gap-3">
        <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
          <Avatar name={name} src={post.author.avatarUrl} />
        </Link>
        <div className="min-w-0 flex-1">
          <Link to={profile} className="block truncate rounded font-bold hover:underline">
            {name}
          </Link>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <time dateTime={post.createdAt}>{relativeTime(post.createdAt, now)}</time>
            {post.editedAt && <span> · Editado</span>}
            {!details && post.visibility === 'followers' && <FollowersOnlyMark />}
          </p>
          {details ? (
            <PostDetails post={post} />
          ) : (
            post.isPinned && (
              <p className="mt-1">
                <PinnedBadge />
              </p>
            )
          )}
        </div>
        {!editing && (
          <ItemMenu
            label="Opciones de la publicación"
            onEdit={
              permissions.canEdit
                ? () => {
                    setDraft(post.content);
                    setEditError(null);
                    setEditing(true);
                  }
                : null
            }
            deleteLabel={permissions.asAdmin ? 'Eliminar como Admin' : 'Eliminar'}
            onDelete={permissions.canDelete ? () => setConfirming(true) : null}
            extra={moderates ? { label: post.isPinned ? 'Desfijar' : 'Fijar', onSelect: () => void togglePin() } : null}
            onReport={canReport ? () => openReport({ targetType: 'post', targetId: postId, name }) : null}
          />
        )}
      </header>

      {post.hiddenByModeration && <HiddenByModeration />}

      {editing ? (
        <div className="space-y-2">
          <textarea
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-label="Editar publicación"
            rows={4}
            autoFocus
            className="w-full resize-y rounded-2xl bg-slate-100 px-4 py-3 text-base focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 dark:bg-white/5"
          />
          {editError && <Alert>{editError}</Alert>}
          <div className="flex justify-end gap-2">
            <button
              type="button"
              onClick={() => setEditing(false)}
              className="rounded-full px-4 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-white/10"
            >
              Cancelar
            </button>
            <button
              type="button"
              onClick={saveEdit}
              disabled={busy}
              className="rounded-full bg-fuchsia-600 px-4 py-1.5 text-sm font-bold text-white hover:bg-fuchsia-700 disabled:opacity-60"
            >
              Guardar
            </button>
          </div>
        </div>
      ) : (
        post.content && <p className="text-[15px] leading-relaxed break-words whitespace-pre-wrap">{post.content}</p>
      )}

      <ImageGrid media={post.media} />

      <ReactionCountsList reactions={post.reactions} myReaction={post.myReaction} />

      <div className="flex items-center gap-1 border-t border-slate-200 pt-2 dark:border-white/10">
        <ReactionPicker myReaction={post.myReaction} disabled={!viewer} onPick={react} />
        <button
          type="button"
          onClick={toggleComments}
          aria-expanded={commentsOpen}
          className="inline-flex min-h-10 items-center gap-1.5 rounded-full px-3 text-sm font-semibold text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-white/10"
        >
          <CommentIcon className="size-5" />
          {commentCountLabel(post.commentCount)}
        </button>
      </div>

      {error && (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}

      {commentsOpen && (
        <CommentsSection
          postId={postId}
          state={comments}
          dispatch={commentsDispatch}
          onCount={(commentCount) => feed({ type: 'patch', postId, patch: { commentCount } })}
          onRetry={() => void loadComments()}
        />
      )}

      {confirming && (
        <ConfirmDialog
          title="¿Eliminar esta publicación?"
          confirmLabel={permissions.asAdmin ? 'Eliminar como Admin' : 'Eliminar'}
          busy={busy}
          onConfirm={remove}
          onCancel={() => setConfirming(false)}
        />
      )}
    </article>
  );
}
