import type { PollStatus } from '@tribuna/contracts/api/polls';
import { STATUS_LABELS } from './pollView';

const STYLES: Record<PollStatus, string> = {
  active: 'bg-emerald-400/90 text-emerald-950',
  closed: 'bg-slate-900/40 text-white',
  draft: 'bg-amber-300 text-amber-950',
};

export function StatusBadge({ status }: { status: PollStatus }) {
  return (
    <span className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-xs font-bold ${STYLES[status]}`}>
      {status === 'active' && <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-emerald-950" />}
      {STATUS_LABELS[status]}
    </span>
  );
}
