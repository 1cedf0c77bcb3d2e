import type { ProfileGroup } from '@tribuna/contracts/api/profiles';
import { GROUP_PRIVACY_LABELS, GROUP_ROLE_LABELS } from '@tribuna/contracts/groupRules';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { initialOf } from '../../components/Avatar';
import { useQuery } from '../../lib/useQuery';
import { fetchProfileGroups } from './api';
import { memberSinceText } from './format';
import { CalendarIcon } from './icons';
import { badgeClass, TabEmpty, TabError, TabSkeleton } from './TabStates';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

const ROLE_STYLES: Record<ProfileGroup['role'], string> = {
  admin: 'bg-fuchsia-100 text-fuchsia-800 dark:bg-fuchsia-400/15 dark:text-fuchsia-300',
  moderator: 'bg-sky-100 text-sky-800 dark:bg-sky-400/15 dark:text-sky-300',
  member: 'bg-slate-100 text-slate-700 dark:bg-white/10 dark:text-slate-300',
};

function GroupCard({ group }: { group: ProfileGroup }) {
  const coverUrl = presentableImageUrl(group.coverUrl);
  const avatarUrl = presentableImageUrl(group.avatarUrl);
  return (
    <li className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
      <article aria-label={group.name}>
        <div className="aspect-[3/1] w-full">
          {coverUrl ? (
            <img src={coverUrl} alt="" loading="lazy" className="size-full bg-slate-200 object-cover dark:bg-ink-800" />
          ) : (
            <div aria-hidden="true" className="brand-gradient size-full opacity-80" />
          )}
        </div>
        <div className="px-4 pb-4">
          <div className="-mt-7 mb-2">
            {avatarUrl ? (
              <img
                src={avatarUrl}
                alt=""
                loading="lazy"
                className="size-14 rounded-2xl bg-slate-200 object-cover ring-4 ring-white dark:bg-ink-800 dark:ring-ink-900"
              />
            ) : (
              <span
                aria-hidden="true"
                className="brand-gradient inline-flex size-14 items-center justify-center rounded-2xl text-2xl font-black text-white ring-4 ring-white dark:ring-ink-900"
              >
                {initialOf(group.name)}
              </span>
            )}
          </div>
          <h3 className="truncate font-bold">{group.name}</h3>
          {group.description && <p className="mt-1 line-clamp-2 text-sm text-slate-600 dark:text-slate-400">{group.description}</p>}
          <p className="mt-3 flex flex-wrap gap-1.5">
            <span className={`${badgeClass} ${ROLE_STYLES[group.role]}`}>{GROUP_ROLE_LABELS[group.role]}</span>
            <span className={`${badgeClass} bg-slate-100 text-slate-700 dark:bg-white/10 dark:text-slate-300`}>{GROUP_PRIVACY_LABELS[group.privacy]}</span>
          </p>
          <p className="mt-2 flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
            <CalendarIcon className="size-3.5" />
            {memberSinceText(group.joinedAt)}
          </p>
        </div>
      </article>
    </li>
  );
}

/** Grupos: the user's memberships (others see public groups only). */
export function GroupsTab({ userId, own }: { userId: string; own: boolean }) {
  const groups = useQuery(['profile-groups', userId], (signal) => fetchProfileGroups(userId, signal), {
    onError: (error) => console.debug(PROFILE_MESSAGES.groupsLoadFailed, error),
  });

  if (groups.status === 'error') return <TabError message={PROFILE_MESSAGES.groupsLoadFailed} onRetry={groups.refetch} />;
  if (groups.status !== 'ready') return <TabSkeleton label="Cargando grupos…" />;
  const { items } = groups.data;
  if (items.length === 0) return <TabEmpty>{own ? PROFILE_MESSAGES.groupsEmptyOwn : PROFILE_MESSAGES.groupsEmptyOther}</TabEmpty>;
  return (
    <ul className="grid gap-4 sm:grid-cols-2" aria-label="Grupos">
      {items.map((group) => (
        <GroupCard key={group.id} group={group} />
      ))}
    </ul>
  );
}
