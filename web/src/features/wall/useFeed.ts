import { createContext, useCallback, useContext, useEffect, useReducer, useRef, useState, type Dispatch } from 'react';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { errorMessage } from '../../lib/api';
import { groupTopic } from '@tribuna/contracts/liveTopics';
import { liveClient } from '../../lib/live/liveClient';
import { useSessionStore } from '../../lib/session/sessionStore';
import { fetchFeed, type FeedFilters } from './api';
import { feedReducer, initialFeedState, type FeedAction, type FeedState } from './feedState';
import { useLatest } from '../../lib/useLatest';

export interface Feed {
  filters: FeedFilters;
  state: FeedState;
  dispatch: Dispatch<FeedAction>;
  /** Loads the next page (no-op while one is loading or at the end). */
  loadMore: () => void;
  /** Reads the first page again (Reintentar, sort change, 'N publicaciones nuevas'). */
  reload: () => void;
}

/** Whether this is the global wall (no user or group filter): only it hears `feed` and has a sort toggle. */
export const isGlobalFeed = (filters: FeedFilters) => !filters.userId && !filters.groupId;

/** The topic that announces a feed's new posts: `feed` for the global wall, `group:{id}` for a group's; null for others. */
export const liveFeedTopic = (filters: FeedFilters): string | null => (isGlobalFeed(filters) ? 'feed' : filters.groupId ? groupTopic(filters.groupId) : null);

/**
 * A feed's posts with keyset paging: the first page loads whenever the filters change (paging
 * starts over), later pages are appended without duplicates. The global wall also listens to the
 * `feed` topic and counts the posts others publish, without inserting them under the reader's eyes.
 */
export function useFeed(filters: FeedFilters): Feed {
  const [state, dispatch] = useReducer(feedReducer, initialFeedState);
  const key = JSON.stringify([filters.sort ?? null, filters.userId ?? null, filters.groupId ?? null, filters.following ?? false]);
  const [loadedKey, setLoadedKey] = useState(key);
  if (loadedKey !== key) {
    // New filters: start over from the first page (adjusting state while rendering, as React advises).
    setLoadedKey(key);
    dispatch({ type: 'reload' });
  }
  const filtersRef = useLatest(filters);
  const stateRef = useLatest(state);
  const moreController = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    const generation = state.generation;
    moreController.current?.abort();
    fetchFeed(filtersRef.current, null, controller.signal).then(
      (page) => dispatch({ type: 'page-loaded', generation, page, append: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.debug(WALL_MESSAGES.loadFailed, error);
        dispatch({ type: 'first-page-failed', generation });
      },
    );
    return () => controller.abort();
  }, [key, state.generation, filtersRef]);

  useEffect(() => () => moreController.current?.abort(), []);

  const loadMore = useCallback(() => {
    const current = stateRef.current;
    if (current.status !== 'ready' || current.loadingMore || !current.hasMore || !current.nextCursor) return;
    const controller = new AbortController();
    moreController.current = controller;
    const generation = current.generation;
    // Marked at once so a second trigger (observer and button) in the same tick does not load twice.
    stateRef.current = { ...current, loadingMore: true };
    dispatch({ type: 'more-started' });
    fetchFeed(filtersRef.current, current.nextCursor, controller.signal).then(
      (page) => dispatch({ type: 'page-loaded', generation, page, append: true }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.debug(WALL_MESSAGES.loadFailed, error);
        dispatch({ type: 'more-failed', generation, message: errorMessage(error, WALL_MESSAGES.loadFailed) });
      },
    );
  }, [filtersRef, stateRef]);

  const reload = useCallback(() => dispatch({ type: 'reload' }), []);

  // The global wall and a group's: count the posts others publish ('N publicaciones nuevas').
  const topic = liveFeedTopic(filters);
  useEffect(() => {
    if (!topic) return;
    return liveClient.subscribe(topic, {
      onMessage(message) {
        if (message.type !== 'feed-post' && message.type !== 'group-post') return;
        if (message.authorId === useSessionStore.getState().user?.id) return;
        // The 'Siguiendo' wall hears the whole public wall: it counts only posts by authors it already shows (known followed).
        if (filtersRef.current.following && !stateRef.current.posts.some((post) => post.author.id === message.authorId)) return;
        dispatch({ type: 'new-post', postId: message.postId });
      },
    });
  }, [topic, filtersRef, stateRef]);

  return { filters, state, dispatch, loadMore, reload };
}

/** The feed a card belongs to, so it can update or remove itself (edits, deletes, live messages). */
export const FeedDispatchContext = createContext<Dispatch<FeedAction>>(() => {});

export const useFeedDispatch = () => useContext(FeedDispatchContext);
