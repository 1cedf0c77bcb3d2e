import { useCallback, useEffect, useId, useState, type ComponentType } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { GroupDetail } from '@tribuna/contracts/api/groups';
import { GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { userTopic } from '@tribuna/contracts/liveTopics';
import { ActionMenu } from '../../components/ActionMenu';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { GroupAvatar, GroupCover, PrivacyBadge } from '../../components/GroupCard';
import { inputClass } from '../../components/FormField';
import { TabError } from '../../components/ListStates';
import { Tabs, type TabDefinition } from '../../components/Tabs';
import { ApiError, errorMessage } from '../../lib/api';
import { liveClient } from '../../lib/live/liveClient';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useLatest } from '../../lib/useLatest';
import { useQuery } from '../../lib/useQuery';
import { deleteGroup, fetchGroup } from './api';
import { memberCountText } from './format';
import { GroupActions } from './GroupActions';
import { GroupFormDialog } from './GroupFormDialog';
import { BansTab, MembersTab, RequestsTab } from './PeopleTabs';

/** What the group's wall is given (the wall's feature draws it; app/GroupRoute.tsx composes them). */
export interface GroupWallPanelProps {
  groupId: string;
  canPost: boolean;
  canModerate: boolean;
}

type GroupTabId = 'publicaciones' | 'miembros' | 'solicitudes' | 'bloqueados';

/**
 * The group's own live news on the viewer's topic `user:{id}`: their relation changed (approved,
 * removed, banned, a new role, the group deleted) → `onRelation`; the pending requests changed (for
 * its admins and moderators) → `onRequests`.
 */
function useGroupLive(groupId: string, onRelation: () => void, onRequests: (count: number) => void) {
  const userId = useSessionStore((s) => s.user?.id ?? null);
  const latest = useLatest({ onRelation, onRequests });
  useEffect(() => {
    if (!userId) return;
    return liveClient.subscribe(userTopic(userId), {
      onMessage(message) {
        if (message.type === 'group-relation' && message.groupId === groupId) latest.current.onRelation();
        if (message.type === 'group-requests' && message.groupId === groupId) latest.current.onRequests(message.pendingRequests);
      },
      // Messages may have been lost while away: the group as it is now.
      onResync: () => latest.current.onRelation(),
    });
  }, [userId, groupId, latest]);
}

/** 'Eliminar grupo': typing the group's name confirms (its posts leave every wall). */
function DeleteGroupDialog({ group, onDone, onCancel }: { group: GroupDetail; onDone: () => void; onCancel: () => void }) {
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const matches = typed.trim() === group.name;
  return (
    <ConfirmDialog
      title="¿Eliminar el grupo?"
      message={
        <div className="space-y-3">
          <p>Se eliminarán el grupo y todas sus publicaciones. Esta acción no se puede deshacer.</p>
          <label htmlFor={inputId} className="block font-semibold text-slate-800 dark:text-slate-100">
            Escribe <strong>{group.name}</strong> para confirmar
          </label>
          <input id={inputId} type="text" value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" className={inputClass} />
        </div>
      }
      confirmLabel="Eliminar grupo"
      action={async () => {
        if (!matches) throw new Error('El nombre no coincide');
        await deleteGroup(group.id);
      }}
      errorFallback={matches ? 'No se pudo eliminar el grupo' : 'Escribe el nombre del grupo exactamente para confirmar'}
      onDone={onDone}
      onCancel={onCancel}
    />
  );
}

function GroupHeader({
  group,
  onChange,
  onEdit,
  onDelete,
}: {
  group: GroupDetail;
  onChange: (group: GroupDetail) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  return (
    <header className="overflow-hidden rounded-b-3xl bg-white shadow-sm ring-1 ring-slate-200/70 sm:rounded-3xl dark:bg-ink-900 dark:ring-white/10">
      <GroupCover url={group.coverUrl} />
      <div className="space-y-3 px-4 pb-5 sm:px-6">
        <div className="relative -mt-10 flex items-end justify-between gap-3">
          <GroupAvatar name={group.name} url={group.avatarUrl} size="lg" />
          {group.canAdminister && (
            <ActionMenu
              label="Opciones del grupo"
              items={[
                { label: 'Editar grupo', onSelect: onEdit },
                { label: 'Eliminar grupo', onSelect: onDelete, tone: 'danger' },
              ]}
            />
          )}
        </div>
        <div>
          <h1 className="text-2xl font-black tracking-tight break-words">{group.name}</h1>
          <p className="mt-1.5 flex flex-wrap items-center gap-2 text-sm text-slate-600 dark:text-slate-400">
            <PrivacyBadge privacy={group.privacy} />
            <span className="font-semibold">{memberCountText(group.memberCount)}</span>
          </p>
        </div>
        {group.description && <p className="text-[15px] break-words whitespace-pre-wrap text-slate-700 dark:text-slate-300">{group.description}</p>}
        <GroupActions group={group} onChange={onChange} />
      </div>
    </header>
  );
}

function GroupSkeleton() {
  return (
    <div aria-busy="true" className="overflow-hidden rounded-b-3xl bg-white ring-1 ring-slate-200/70 sm:rounded-3xl dark:bg-ink-900 dark:ring-white/10">
      <p role="status" className="sr-only">
        Cargando grupo…
      </p>
      <div aria-hidden="true">
        <div className="aspect-[3/1] w-full bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
        <div className="space-y-3 px-4 pt-4 pb-6">
          <div className="h-5 w-1/2 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
          <div className="h-3 w-1/3 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
        </div>
      </div>
    </div>
  );
}

/**
 * /grupos/:groupId: the group's header (cover, avatar, name, privacy, members, description, the
 * viewer's action, the admins' ⋯ menu) and its tabs: Publicaciones (its wall), Miembros, and for
 * its moderators Solicitudes (live count) and for its admins Bloqueados. A private group shows
 * nothing but its header to those outside it.
 */
export function GroupPage({ WallPanel }: { WallPanel: ComponentType<GroupWallPanelProps> }) {
  const { groupId = '' } = useParams();
  const navigate = useNavigate();
  const query = useQuery(['group', groupId], (signal) => fetchGroup(groupId, signal), {
    onError: (error) => console.debug(GROUP_MESSAGES.notFound, error),
  });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const { setData, refetch } = query;
  useDocumentTitle(query.status === 'ready' ? query.data.name : 'Grupo');

  // The group again, in place (no skeleton): after a live change of the viewer's relation.
  const refresh = useCallback(() => {
    fetchGroup(groupId).then(setData, (error: unknown) => {
      console.debug('Error al actualizar el grupo', error);
      if (error instanceof ApiError && error.status === 404) refetch();
    });
  }, [groupId, setData, refetch]);
  const setPending = useCallback((pendingRequests: number) => setData((g) => (g.canModerate ? { ...g, pendingRequests } : g)), [setData]);
  useGroupLive(groupId, refresh, setPending);

  if (query.status === 'error') {
    const missing = query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400);
    return (
      <div className="mx-auto max-w-3xl space-y-4 px-3 pt-6 pb-24 sm:px-4">
        {missing ? (
          <div className="rounded-3xl bg-white px-6 py-12 text-center ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
            <h1 className="text-xl font-bold">{GROUP_MESSAGES.notFound}</h1>
            <Link to="/grupos" className="mt-4 inline-flex font-bold text-fuchsia-700 hover:underline dark:text-fuchsia-300">
              Ver todos los grupos
            </Link>
          </div>
        ) : (
          <TabError message={errorMessage(query.error, 'Error al cargar el grupo')} onRetry={refetch} />
        )}
      </div>
    );
  }

  if (query.status !== 'ready')
    return (
      <div className="mx-auto max-w-3xl px-0 pb-24 sm:px-4 sm:pt-6">
        <GroupSkeleton />
      </div>
    );

  const group = query.data;
  const tabs: Array<TabDefinition<GroupTabId>> = [
    { id: 'publicaciones', label: 'Muro', panel: () => <WallPanel groupId={group.id} canPost={group.canPost} canModerate={group.canModerate} /> },
    { id: 'miembros', label: 'Miembros', panel: () => <MembersTab group={group} onGroupChanged={refresh} /> },
  ];
  if (group.canModerate)
    tabs.push({
      id: 'solicitudes',
      label: 'Solicitudes',
      count: group.pendingRequests ?? 0,
      countLabel: (n) => (n === 1 ? '1 pendiente' : `${n} pendientes`),
      panel: () => <RequestsTab group={group} onGroupChanged={refresh} onPending={setPending} />,
    });
  if (group.canAdminister) tabs.push({ id: 'bloqueados', label: 'Bloqueados', panel: () => <BansTab group={group} onGroupChanged={refresh} /> });

  return (
    <div className="mx-auto max-w-3xl space-y-4 px-0 pb-24 sm:px-4 sm:pt-6 md:pb-12">
      <GroupHeader group={group} onChange={setData} onEdit={() => setEditing(true)} onDelete={() => setDeleting(true)} />

      <div className="px-3 sm:px-0">
        {group.canRead ? (
          <Tabs key={group.id} label="Secciones del grupo" tabs={tabs} />
        ) : (
          <div className="rounded-3xl bg-white px-6 py-10 text-center ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
            <p className="font-semibold text-slate-700 dark:text-slate-200">{GROUP_MESSAGES.privateGroup}</p>
          </div>
        )}
      </div>

      {editing && <GroupFormDialog group={group} onClose={() => setEditing(false)} onSaved={setData} />}
      {deleting && <DeleteGroupDialog group={group} onCancel={() => setDeleting(false)} onDone={() => navigate('/grupos', { replace: true })} />}
    </div>
  );
}
