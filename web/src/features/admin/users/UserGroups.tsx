import { Link } from 'react-router-dom';
import type { ProfileGroup } from '@tribuna/contracts/api/profiles';
import { GROUP_PRIVACY_LABELS, GROUP_ROLE_LABELS } from '@tribuna/contracts/groupRules';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { LinesSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge, type BadgeTone } from '../../../components/admin/StatusBadge';

export const USER_GROUPS_FAILED = 'Error al cargar los grupos';
export const DELETE_GROUP_FAILED = 'Error al eliminar el grupo';

const ROLE_TONES: Record<ProfileGroup['role'], BadgeTone> = { admin: 'fuchsia', moderator: 'sky', member: 'slate' };

/** The user's groups, private ones too (GET /api/admin/users/:userId/groups). */
export function useUserGroups(userId: string) {
  return useQuery(['admin-user-groups', userId], (signal) => callApi('adminUserGroups', { signal, params: { userId } }));
}

interface UserGroupsProps {
  groups: ReturnType<typeof useUserGroups>;
  /** 'Eliminar grupo' was chosen: the caller shows the confirmation (DeleteGroupDialog) in its dialog's place. */
  onDelete: (group: ProfileGroup) => void;
}

/** Grupos: each membership with its role and the group's privacy, a link to the group and 'Eliminar grupo'. */
export function UserGroups({ groups, onDelete }: UserGroupsProps) {
  return (
    <section aria-labelledby="admin-user-groups" className="space-y-2">
      <h3 id="admin-user-groups" className="text-sm font-bold">
        Grupos
      </h3>
      {groups.status === 'error' ? (
        <ErrorBanner error={groups.error} fallback={USER_GROUPS_FAILED} onRetry={groups.refetch} />
      ) : groups.status !== 'ready' ? (
        <div role="status" aria-live="polite">
          <span className="sr-only">Cargando grupos…</span>
          <LinesSkeleton lines={2} />
        </div>
      ) : groups.data.items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">No pertenece a ningún grupo.</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200 dark:divide-white/5 dark:ring-white/10" aria-label="Grupos del usuario">
          {groups.data.items.map((group) => (
            <li key={group.id} className="flex flex-wrap items-center gap-x-3 gap-y-1.5 px-3 py-2.5">
              <Link to={`/grupos/${group.id}`} className="min-w-0 flex-1 truncate font-semibold text-fuchsia-700 hover:underline dark:text-fuchsia-300">
                {group.name}
              </Link>
              <span className="flex items-center gap-1.5">
                <StatusBadge tone={ROLE_TONES[group.role]}>{GROUP_ROLE_LABELS[group.role]}</StatusBadge>
                <StatusBadge tone={group.privacy === 'private' ? 'amber' : 'green'}>{GROUP_PRIVACY_LABELS[group.privacy]}</StatusBadge>
                <button
                  type="button"
                  onClick={() => onDelete(group)}
                  aria-label={`Eliminar grupo ${group.name}`}
                  className="rounded-full px-2.5 py-1 text-xs font-bold text-rose-700 ring-1 ring-rose-300 hover:bg-rose-50 dark:text-rose-300 dark:ring-rose-500/40 dark:hover:bg-rose-500/10"
                >
                  Eliminar grupo
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The confirmation of 'Eliminar grupo': DELETE /api/admin/groups/:groupId (its posts leave every wall; audit log). */
export function DeleteGroupDialog({ group, onDone, onCancel }: { group: ProfileGroup; onDone: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title="Eliminar grupo"
      message={
        <p>
          Se eliminará el grupo <strong className="text-slate-900 dark:text-white">{group.name}</strong> con todas sus publicaciones y miembros. No se puede
          deshacer.
        </p>
      }
      confirmLabel="Eliminar grupo"
      errorFallback={DELETE_GROUP_FAILED}
      action={() => callApi('adminDeleteGroup', { params: { groupId: group.id } })}
      onDone={onDone}
      onCancel={onCancel}
    />
  );
}
