import type { ProfileGroup } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { GroupCard, RoleBadge } from '../../components/GroupCard';
import { useQuery } from '../../lib/useQuery';
import { fetchProfileGroups } from './api';
import { memberSinceText } from './format';
import { CalendarIcon } from './icons';
import { TabEmpty, TabError, TabSkeleton } from './TabStates';

function ProfileGroupCard({ group }: { group: ProfileGroup }) {
  return (
    <GroupCard
      group={group}
      badges={<RoleBadge role={group.role} />}
      footer={
        <p className="flex items-center gap-1.5">
          <CalendarIcon className="size-3.5" />
          {memberSinceText(group.joinedAt)}
        </p>
      }
    />
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
        <ProfileGroupCard key={group.id} group={group} />
      ))}
    </ul>
  );
}
