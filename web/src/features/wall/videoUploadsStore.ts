import { create } from 'zustand';
import type { VideoUploadView } from '@tribuna/contracts/api/wall';

/** A clip of the signed-in author's on its way to becoming a post ('Procesando video…'), or one that failed. */
export interface PendingVideo {
  id: string;
  content: string;
  groupId: string | null;
  createdAt: string;
  status: 'processing' | 'failed';
}

interface VideoUploadsState {
  /** Whose clips these are (reset when someone else signs in). */
  userId: string | null;
  /** Newest first. */
  uploads: PendingVideo[];
  /** Clips already published or failed: a late answer (list, composer) does not bring them back. */
  settled: ReadonlySet<string>;
  reset(userId: string | null): void;
  /** The composer's 202. */
  added(upload: VideoUploadView): void;
  /**
   * The server's list, read after `known` were the clips being processed here: adds those it has,
   * answers those of `known` it no longer has (published or failed without us hearing), which stay
   * until `published` or `failed` settles them.
   */
  listed(uploads: readonly VideoUploadView[], known: readonly string[]): string[];
  published(uploadId: string): void;
  /** Marks the clip failed (added as such when it was sent from another tab or device). */
  failed(uploadId: string, when?: string): void;
  /** 'Descartar' on a failed clip. */
  dismissed(uploadId: string): void;
}

const pending = (upload: VideoUploadView): PendingVideo => ({
  id: upload.id,
  content: upload.content,
  groupId: upload.groupId,
  createdAt: upload.createdAt,
  status: 'processing',
});

const newestFirst = (a: PendingVideo, b: PendingVideo) => Date.parse(b.createdAt) - Date.parse(a.createdAt);

export const useVideoUploadsStore = create<VideoUploadsState>()((set, get) => ({
  userId: null,
  uploads: [],
  settled: new Set(),
  reset: (userId) => set({ userId, uploads: [], settled: new Set() }),
  added: (upload) =>
    set((state) => {
      if (state.settled.has(upload.id) || state.uploads.some((u) => u.id === upload.id)) return state;
      return { uploads: [pending(upload), ...state.uploads].sort(newestFirst) };
    }),
  listed: (uploads, known) => {
    const state = get();
    const present = new Set(uploads.map((upload) => upload.id));
    const fresh = uploads.filter((upload) => !state.settled.has(upload.id) && !state.uploads.some((u) => u.id === upload.id)).map(pending);
    if (fresh.length > 0) set({ uploads: [...state.uploads, ...fresh].sort(newestFirst) });
    return known.filter((id) => !present.has(id) && get().uploads.some((u) => u.id === id && u.status === 'processing'));
  },
  published: (uploadId) => set((state) => ({ uploads: state.uploads.filter((u) => u.id !== uploadId), settled: new Set([...state.settled, uploadId]) })),
  failed: (uploadId, when = new Date().toISOString()) =>
    set((state) => {
      const settled = new Set([...state.settled, uploadId]);
      if (state.uploads.some((u) => u.id === uploadId))
        return { uploads: state.uploads.map((u) => (u.id === uploadId ? { ...u, status: 'failed' as const } : u)), settled };
      // A clip sent from another tab or device: the author is told all the same.
      return { uploads: [{ id: uploadId, content: '', groupId: null, createdAt: when, status: 'failed' as const }, ...state.uploads], settled };
    }),
  dismissed: (uploadId) => set((state) => ({ uploads: state.uploads.filter((u) => u.id !== uploadId) })),
}));
