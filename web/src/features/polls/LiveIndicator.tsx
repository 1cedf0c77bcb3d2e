import { useIsLive, useLiveResultsStore } from './liveResultsStore';

/** "En vivo" with a pulsing dot while the poll's live subscription is up; otherwise the connection state. */
export function LiveIndicator({ pollId }: { pollId: string }) {
  const live = useIsLive(pollId);
  const everConnected = useLiveResultsStore((state) => state.everConnected);
  return (
    <span
      role="status"
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-bold ${
        live ? 'bg-rose-700 text-white' : 'bg-slate-200 text-slate-700 dark:bg-white/10 dark:text-slate-300'
      }`}
    >
      <span aria-hidden="true" className="relative flex size-2">
        {live && <span className="absolute inline-flex size-full animate-ping rounded-full bg-white opacity-75" />}
        <span className={`relative inline-flex size-2 rounded-full ${live ? 'bg-white' : 'bg-slate-400'}`} />
      </span>
      {live ? 'En vivo' : everConnected ? 'Reconectando…' : 'Conectando…'}
    </span>
  );
}
