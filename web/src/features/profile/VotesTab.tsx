import type { VoteHistoryItem } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import { initialOf } from '../../components/Avatar';
import { errorMessage } from '../../lib/api';
import { useQuery } from '../../lib/useQuery';
import { fetchVotingHistory } from './api';
import { dateTimeText } from './format';
import { LockIcon } from './icons';
import { badgeClass, TabEmpty, TabError, TabSkeleton } from './TabStates';

const STATUS: Record<VoteHistoryItem['pollStatus'], { label: string; className: string }> = {
  active: { label: 'Activa', className: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-400/15 dark:text-emerald-300' },
  closed: { label: 'Cerrada', className: 'bg-slate-200 text-slate-700 dark:bg-white/10 dark:text-slate-300' },
  draft: { label: 'Borrador', className: 'bg-amber-100 text-amber-800 dark:bg-amber-400/15 dark:text-amber-300' },
};

/** The chosen option as the row names it: the contestant, else the option's text, else 'Opción eliminada'. */
export function choiceLabel(item: VoteHistoryItem): string {
  if (item.optionRemoved) return PROFILE_MESSAGES.removedOption;
  return item.contestantName ?? item.optionText ?? PROFILE_MESSAGES.removedOption;
}

/** The contestant's photo, else the label's initial (as the home poll's OptionAvatar). Decorative. */
function ChoicePhoto({ item, label }: { item: VoteHistoryItem; label: string }) {
  const base = 'size-12 shrink-0 rounded-2xl';
  const photo = presentableImageUrl(item.contestantPhotoUrl);
  if (photo && !item.optionRemoved) {
    return <img src={photo} alt="" loading="lazy" className={`${base} bg-slate-200 object-cover dark:bg-ink-800`} />;
  }
  return (
    <span
      aria-hidden="true"
      className={`${base} inline-flex items-center justify-center font-black text-white ${item.optionRemoved ? 'bg-slate-400 dark:bg-slate-600' : 'brand-gradient'}`}
    >
      {item.optionRemoved ? '?' : initialOf(label)}
    </span>
  );
}

function VoteRow({ item }: { item: VoteHistoryItem }) {
  const label = choiceLabel(item);
  const status = STATUS[item.pollStatus];
  return (
    <li className="flex items-center gap-3 rounded-3xl bg-white p-4 shadow-sm ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
      <ChoicePhoto item={item} label={label} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-bold">{item.pollTitle}</p>
        <p className={`truncate text-sm ${item.optionRemoved ? 'text-slate-500 italic dark:text-slate-400' : 'text-slate-700 dark:text-slate-200'}`}>{label}</p>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <time dateTime={item.createdAt}>{dateTimeText(item.createdAt)}</time>
        </p>
      </div>
      <span className={`${badgeClass} shrink-0 ${status.className}`}>{status.label}</span>
    </li>
  );
}

/** Votaciones: the owner's latest votes; anybody else only reads that it is private (nothing is requested). */
export function VotesTab({ userId, own }: { userId: string; own: boolean }) {
  const history = useQuery(['profile-votes', userId], (signal) => fetchVotingHistory(userId, signal), {
    enabled: own,
    onError: (error) => console.debug(PROFILE_MESSAGES.votesLoadFailed, error),
  });

  if (!own) return <TabEmpty icon={<LockIcon className="size-8 text-slate-400" />}>{PROFILE_MESSAGES.votingPrivate}</TabEmpty>;
  if (history.status === 'error') {
    return <TabError tone="warning" message={errorMessage(history.error, PROFILE_MESSAGES.votesLoadFailed)} onRetry={history.refetch} />;
  }
  if (history.status !== 'ready') return <TabSkeleton label="Cargando votaciones…" />;
  const { items } = history.data;
  if (items.length === 0) return <TabEmpty>{PROFILE_MESSAGES.votesEmpty}</TabEmpty>;
  return (
    <ul className="space-y-3" aria-label="Historial de votaciones">
      {items.map((item) => (
        <VoteRow key={item.id} item={item} />
      ))}
    </ul>
  );
}
