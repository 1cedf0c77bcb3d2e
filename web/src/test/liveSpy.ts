import { act } from '@testing-library/react';
import { vi } from 'vitest';
import { liveClient, type LiveTopicHandler, type TopicMessage } from '../lib/live/liveClient';

/**
 * Replaces liveClient.subscribe for a test: records who watches which topic and delivers messages
 * straight to their handlers (no socket, no routing).
 */
export function spyLive() {
  const subscriptions: Array<{ topic: string; handler: LiveTopicHandler; active: boolean }> = [];
  vi.spyOn(liveClient, 'subscribe').mockImplementation((topic: string, handler: LiveTopicHandler) => {
    const subscription = { topic, handler, active: true };
    subscriptions.push(subscription);
    return () => {
      subscription.active = false;
    };
  });
  const active = () => subscriptions.filter((s) => s.active);
  return {
    /** Topics watched right now. */
    topics: () => active().map((s) => s.topic),
    deliver(message: TopicMessage) {
      act(() => {
        for (const s of active()) if (s.topic === message.topic) s.handler.onMessage(message);
      });
    },
    async resync(topic: string) {
      await act(async () => {
        for (const s of active()) if (s.topic === topic) await s.handler.onResync?.();
      });
    },
  };
}
