import { useSessionStore } from '../lib/session/sessionStore';
import { liveClient } from '../lib/live/liveClient';

/**
 * The server fixes a socket's user when it opens (hello.userId): after a sign-in or sign-out the
 * live connection is opened again. The first session read does not count: the socket was opened
 * with the same cookie it describes.
 */
export function reconnectLiveOnSessionChange(): () => void {
  return useSessionStore.subscribe((state, previous) => {
    if (previous.status === 'ready' && state.status === 'ready' && (state.user?.id ?? null) !== (previous.user?.id ?? null)) {
      liveClient.reconnect();
    }
  });
}
