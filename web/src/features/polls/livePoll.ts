import { pollTopic } from '@tribuna/contracts/liveTopics';
import type { LiveClient, LiveTopicHandler } from '../../lib/live/liveClient';
import { fetchPollResults } from './api';
import { useLiveResultsStore, type SequencedResults } from './liveResultsStore';

type Store = Pick<
  ReturnType<typeof useLiveResultsStore.getState>,
  'applyResults' | 'applySnapshot' | 'applyVoters' | 'applyPollStatus' | 'notePointsReset' | 'setConnected' | 'setSubscribed' | 'forgetSeq'
>;

export interface LivePollOptions {
  /** The resync source after a reconnect (the HTTP results). */
  fetchResults?: (pollId: string) => Promise<SequencedResults>;
  store?: () => Store;
}

const defaultStore = () => useLiveResultsStore.getState();

/** The `poll:{id}` topic's handler: its messages land in the live results store. */
export function livePollHandler(pollId: string, options: LivePollOptions = {}): LiveTopicHandler {
  const store = options.store ?? defaultStore;
  const fetchResults = options.fetchResults ?? ((id: string) => fetchPollResults(id));
  return {
    onMessage(message) {
      if (message.type === 'results') store().applySnapshot(message);
      else if (message.type === 'voters') store().applyVoters(message);
      else if (message.type === 'poll-status') store().applyPollStatus(message);
    },
    onSubscribed: (subscribed) => store().setSubscribed(pollId, subscribed),
    // A new connection: the next snapshot is taken whatever its seq (seqs restart after a rebuild).
    onReconnect: () => store().forgetSeq([pollId]),
    onResync: async () => {
      const results = await fetchResults(pollId);
      store().applyResults(results);
    },
  };
}

/** Watches a poll's live results on `client` until the returned function is called. */
export function watchLivePoll(client: LiveClient, pollId: string, options: LivePollOptions = {}): () => void {
  return client.subscribe(pollTopic(pollId), livePollHandler(pollId, options));
}

/** What the polls feature hears from the connection itself: whether it is open, and the daily points reset. */
export function connectPollsToLive(client: LiveClient, store: () => Store = defaultStore): () => void {
  const offConnection = client.onConnectionChange((connected) => store().setConnected(connected));
  const offBroadcast = client.onBroadcast((message) => {
    if (message.type === 'points-reset') store().notePointsReset();
  });
  return () => {
    offConnection();
    offBroadcast();
  };
}
