import { useEffect, useState } from 'react';
import { callApi } from '../../../lib/api';
import { liveClient } from '../../../lib/live/liveClient';
import { useQuery } from '../../../lib/useQuery';

/**
 * The open count of the moderation queue (the back-office badge): GET /api/moderation/count at
 * first, then the `moderation` topic's snapshots, which win over the HTTP answer once one arrived.
 * After a dropped connection it reads the count again over HTTP (the topic sends a fresh snapshot
 * as it is subscribed again). Null until known, or when `enabled` is false (not staff).
 */
export function useModerationCount(enabled: boolean): number | null {
  const query = useQuery(['moderation-count'], (signal) => callApi('moderationCount', { signal }), { enabled });
  const { refetch } = query;
  const [live, setLive] = useState<number | null>(null);

  useEffect(() => {
    if (!enabled) return;
    return liveClient.subscribe('moderation', {
      onMessage(message) {
        if (message.type === 'moderation-count') setLive(message.open);
      },
      onResync() {
        setLive(null);
        refetch();
      },
    });
  }, [enabled, refetch]);

  if (!enabled) return null;
  return live ?? (query.status === 'ready' ? query.data.open : null);
}
