import type { FeedPage, PostView, ReactionCounts } from '@tribuna/contracts/api/wall';
import type { ReactionType } from '@tribuna/contracts/wallRules';

/** A feed's state: its posts in order, paging, and the live 'N publicaciones nuevas' counter. */
export interface FeedState {
  /** 'loading': the first page is on its way (skeletons); 'error': it failed (Reintentar). */
  status: 'loading' | 'ready' | 'error';
  posts: PostView[];
  /** A group's pinned posts ('Fijado'), shown above `posts` and never among them (FeedPage.pinned). */
  pinned: PostView[];
  nextCursor: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  /** A later page failed while posts are shown: a dismissible inline error. */
  moreError: string | null;
  /** Posts published by others since the first page was read (live `feed-post`). */
  newPosts: number;
  /** Bumped on every reload, so an answer for an older load is ignored. */
  generation: number;
}

export type FeedAction =
  | { type: 'reload' }
  | { type: 'page-loaded'; generation: number; page: FeedPage; append: boolean }
  | { type: 'first-page-failed'; generation: number }
  | { type: 'more-started' }
  | { type: 'more-failed'; generation: number; message: string }
  | { type: 'dismiss-more-error' }
  | { type: 'prepend'; post: PostView }
  | { type: 'patch'; postId: string; patch: Partial<PostView> }
  | { type: 'reactions'; postId: string; reactions: ReactionCounts; myReaction?: ReactionType | null }
  | { type: 'remove'; postId: string }
  | { type: 'replace'; post: PostView }
  | { type: 'new-post'; postId: string }
  /** A group's post was pinned or unpinned: it moves between `pinned` (last) and the top of `posts`. */
  | { type: 'pin'; post: PostView; pinned: boolean };

export const initialFeedState: FeedState = {
  status: 'loading',
  posts: [],
  pinned: [],
  nextCursor: null,
  hasMore: false,
  loadingMore: false,
  moreError: null,
  newPosts: 0,
  generation: 0,
};

/** `posts` followed by those of `more` not already among them (keyset pages may overlap after inserts). */
export function appendUnique(posts: readonly PostView[], more: readonly PostView[]): PostView[] {
  const seen = new Set(posts.map((post) => post.id));
  const result = [...posts];
  for (const post of more) {
    if (seen.has(post.id)) continue;
    seen.add(post.id);
    result.push(post);
  }
  return result;
}

const has = (posts: readonly PostView[], postId: string) => posts.some((post) => post.id === postId);

/** Applies `update` to the post, among the pinned ones or the others. */
const mapPost = (state: FeedState, postId: string, update: (post: PostView) => PostView): FeedState => {
  const map = (posts: PostView[]) => (has(posts, postId) ? posts.map((post) => (post.id === postId ? update(post) : post)) : posts);
  if (!has(state.posts, postId) && !has(state.pinned, postId)) return state;
  return { ...state, posts: map(state.posts), pinned: map(state.pinned) };
};

export function feedReducer(state: FeedState, action: FeedAction): FeedState {
  switch (action.type) {
    case 'reload':
      return { ...initialFeedState, generation: state.generation + 1 };
    case 'page-loaded':
      if (action.generation !== state.generation) return state;
      return {
        ...state,
        status: 'ready',
        posts: action.append ? appendUnique(state.posts, action.page.posts) : appendUnique([], action.page.posts),
        pinned: action.append ? state.pinned : (action.page.pinned ?? []),
        nextCursor: action.page.nextCursor,
        hasMore: action.page.hasMore && action.page.nextCursor !== null,
        loadingMore: false,
        moreError: null,
      };
    case 'first-page-failed':
      if (action.generation !== state.generation) return state;
      return { ...state, status: 'error', loadingMore: false };
    case 'more-started':
      return { ...state, loadingMore: true, moreError: null };
    case 'more-failed':
      if (action.generation !== state.generation) return state;
      return { ...state, loadingMore: false, moreError: action.message };
    case 'dismiss-more-error':
      return { ...state, moreError: null };
    case 'prepend':
      return { ...state, status: 'ready', posts: appendUnique([action.post], state.posts) };
    case 'patch':
      return mapPost(state, action.postId, (post) => ({ ...post, ...action.patch }));
    case 'replace':
      return mapPost(state, action.post.id, () => action.post);
    case 'reactions':
      return mapPost(state, action.postId, (post) => ({
        ...post,
        reactions: action.reactions,
        myReaction: action.myReaction === undefined ? post.myReaction : action.myReaction,
      }));
    case 'remove':
      if (!has(state.posts, action.postId) && !has(state.pinned, action.postId)) return state;
      return { ...state, posts: state.posts.filter((post) => post.id !== action.postId), pinned: state.pinned.filter((post) => post.id !== action.postId) };
    case 'new-post':
      if (has(state.posts, action.postId) || has(state.pinned, action.postId)) return state;
      return { ...state, newPosts: state.newPosts + 1 };
    case 'pin': {
      const post = { ...action.post, isPinned: action.pinned };
      const posts = state.posts.filter((p) => p.id !== post.id);
      const pinned = state.pinned.filter((p) => p.id !== post.id);
      return action.pinned ? { ...state, posts, pinned: [...pinned, post] } : { ...state, posts: [post, ...posts], pinned };
    }
  }
}

/** The counts after the viewer switches from `before` to `after` (the optimistic view of a reaction). */
export function applyMyReaction(counts: ReactionCounts, before: ReactionType | null, after: ReactionType | null): ReactionCounts {
  const next = { ...counts };
  if (before) next[before] = Math.max(0, next[before] - 1);
  if (after) next[after] += 1;
  return next;
}

/** What clicking `type` does: the same type again removes the reaction, another one replaces it. */
export const toggledReaction = (current: ReactionType | null, type: ReactionType): ReactionType | null => (current === type ? null : type);
