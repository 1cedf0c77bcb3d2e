import { useEffect } from 'react';
import type { PostView } from '@tribuna/contracts/api/wall';
import { userTopic } from '@tribuna/contracts/liveTopics';
import { ApiError } from '../../lib/api';
import { liveClient } from '../../lib/live/liveClient';
import { useLatest } from '../../lib/useLatest';
import { fetchFeed, fetchPost, fetchVideoUploads, type FeedFilters } from './api';
import { useVideoUploadsStore } from './videoUploadsStore';

const failedToLoad = (error: unknown) => console.debug('No se pudieron leer los videos en proceso', error);

/**
 * Which of the author's clips a feed shows (and which of their published clips it takes in): the
 * wall those without a group, a group's feed its own, the author's own profile all of them; null
 * where none belong (visitors, somebody else's profile, the 'Siguiendo' wall of others' posts).
 */
export function videoUploadsScope(filters: FeedFilters, viewerId: string | null): ((groupId: string | null) => boolean) | null {
  if (!viewerId || filters.following) return null;
  if (filters.userId) return filters.userId === viewerId ? () => true : null;
  if (filters.groupId) return (groupId) => groupId === filters.groupId;
  return (groupId) => groupId === null;
}

const isVideoPost = (post: PostView) => post.media.some((media) => media.mediaType === 'video');

/**
 * The signed-in author's clips being processed, kept in useVideoUploadsStore: read from GET
 * /api/me/video-uploads on mount and after a dropped connection, settled by the `video-upload`
 * messages of their `user:{id}` topic. A published clip's post is read (GET /api/posts/:id) and
 * handed to `onPublished` (the feed puts it on top); a failed one stays as 'No pudimos procesar el
 * video' until dismissed. A clip that left the list while no message reached us is looked for among
 * the author's newest posts (same text, a video, not older than the upload): found, it is published;
 * not found, it failed (its row and files are gone either way).
 */
export function useVideoUploads(userId: string | null, onPublished: (post: PostView) => void): void {
  const latest = useLatest(onPublished);

  useEffect(() => {
    if (!userId) return;
    const store = () => useVideoUploadsStore.getState();
    if (store().userId !== userId) store().reset(userId);
    let active = true;

    async function publish(postId: string) {
      try {
        const post = await fetchPost(postId);
        if (active) latest.current(post);
      } catch (error) {
        // Deleted since (404): nothing to show.
        if (!(error instanceof ApiError && error.status === 404)) console.debug('No se pudo leer la publicación del video', error);
      }
    }

    async function settleVanished(ids: readonly string[]) {
      const page = await fetchFeed({ userId: userId!, sort: 'recent' }, null);
      if (!active) return;
      const candidates = page.posts.filter(isVideoPost);
      const gone = store()
        .uploads.filter((upload) => ids.includes(upload.id))
        .reverse();
      for (const upload of gone) {
        const at = candidates.findIndex((post) => post.content === upload.content && Date.parse(post.createdAt) >= Date.parse(upload.createdAt));
        if (at === -1) {
          store().failed(upload.id);
          continue;
        }
        const [post] = candidates.splice(at, 1);
        store().published(upload.id);
        latest.current(post!);
      }
    }

    async function refresh() {
      const known = store()
        .uploads.filter((upload) => upload.status === 'processing')
        .map((upload) => upload.id);
      const { uploads } = await fetchVideoUploads();
      if (!active) return;
      const vanished = store().listed(uploads, known);
      if (vanished.length > 0) await settleVanished(vanished);
    }

    refresh().catch(failedToLoad);
    const unsubscribe = liveClient.subscribe(userTopic(userId), {
      onMessage(message) {
        if (message.type !== 'video-upload') return;
        if (message.status === 'failed' || !message.postId) {
          store().failed(message.uploadId);
          return;
        }
        store().published(message.uploadId);
        void publish(message.postId);
      },
      onResync: () => refresh().catch(failedToLoad),
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, [userId, latest]);
}
