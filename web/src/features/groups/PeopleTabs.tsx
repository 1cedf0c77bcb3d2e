import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { AuthorView } from '@tribuna/contracts/api/wall';
import type { GroupDetail } from '@tribuna/contracts/api/groups';
import type { GroupRole } from '@tribuna/contracts/groupRules';
import { ActionMenu, type ActionMenuItem } from '../../components/ActionMenu';
import { ConfirmDialog } from '../../components/admin/ConfirmDialog';
import { Avatar } from '../../components/Avatar';
import { RoleBadge } from '../../components/GroupCard';
import { LoadMoreButton, TabEmpty, TabError, TabSkeleton } from '../../components/ListStates';
import { errorMessage } from '../../lib/api';
import { formatDate, memberSince } from '../../lib/dates';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { usePagedList, type PagedList } from '../../lib/usePagedList';
import { answerRequest, changeRole, fetchBans, fetchMembers, fetchRequests, removeMember, unban, type MemberRow, type PersonRow } from './api';

const smallButton = 'inline-flex min-h-9 items-center rounded-full px-3.5 text-sm font-bold transition disabled:opacity-60';

/** One person of a group's list: avatar, name (their profile), a line under it, and what may be done. */
function PersonItem({ user, detail, children }: { user: AuthorView; detail?: ReactNode; children?: ReactNode }) {
  const name = displayNameOf(user);
  const profile = `/perfil/${user.id}`;
  return (
    <li className="flex flex-wrap items-center gap-3 rounded-3xl bg-white p-3 ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
      <Link to={profile} tabIndex={-1} aria-hidden="true" className="shrink-0 rounded-full">
        <Avatar name={name} src={user.avatarUrl} />
      </Link>
      {/* At least 9rem for the name: on a phone the actions go under it rather than cutting it short. */}
      <div className="min-w-36 flex-1">
        <Link to={profile} className="block truncate rounded font-bold hover:underline">
          {name}
        </Link>
        {detail && <div className="mt-0.5 flex flex-wrap items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">{detail}</div>}
      </div>
      {children && <div className="ml-auto flex shrink-0 items-center gap-1.5">{children}</div>}
    </li>
  );
}

interface PeopleListProps<T> {
  list: PagedList<T>;
  label: string;
  loading: string;
  loadFailed: string;
  empty: string;
  /** An action's failure, above the list. */
  error?: string | null;
  render: (item: T) => ReactNode;
}

/** A paged list of a group's people: skeleton, error with Reintentar, empty, 'Cargar más'. */
function PeopleList<T extends { id: string }>({ list, label, loading, loadFailed, empty, error, render }: PeopleListProps<T>) {
  const { state, loadMore, reload } = list;
  if (state.status === 'loading') return <TabSkeleton label={loading} />;
  if (state.status === 'error') return <TabError message={errorMessage(state.error, loadFailed)} onRetry={reload} />;
  return (
    <div className="space-y-4">
      {error && (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
      {state.items.length === 0 ? (
        <TabEmpty>{empty}</TabEmpty>
      ) : (
        <ul className="space-y-2" aria-label={label}>
          {state.items.map(render)}
        </ul>
      )}
      {state.moreError !== null && (
        <p role="alert" className="text-center text-sm font-medium text-rose-600 dark:text-rose-400">
          {errorMessage(state.moreError, loadFailed)}
        </p>
      )}
      {state.nextCursor && <LoadMoreButton onClick={loadMore} loading={state.loadingMore} />}
    </div>
  );
}

const ROLE_ACTIONS: Array<{ role: GroupRole; label: string }> = [
  { role: 'admin', label: 'Hacer admin' },
  { role: 'moderator', label: 'Hacer moderador' },
  { role: 'member', label: 'Hacer miembro' },
];

interface TabProps {
  group: GroupDetail;
  /** Something changed the group's counts (a member removed, a request answered): read it again. */
  onGroupChanged: () => void;
}

/**
 * Miembros: admins, then moderators, then members, with their role badges. The group's admins
 * promote and demote, remove and ban (confirmed); moderators remove plain members.
 */
export function MembersTab({ group, onGroupChanged }: TabProps) {
  const viewerId = useSessionStore((s) => s.user?.id ?? null);
  const list = usePagedList((cursor, signal) => fetchMembers(group.id, cursor, signal));
  const [removing, setRemoving] = useState<{ member: MemberRow; ban: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function setRole(member: MemberRow, role: GroupRole) {
    setError(null);
    try {
      await changeRole(group.id, member.user.id, role);
      list.reload();
    } catch (failure) {
      console.debug('Error al cambiar el rol', failure);
      setError(errorMessage(failure, 'No se pudo cambiar el rol'));
    }
  }

  function actionsFor(member: MemberRow): ActionMenuItem[] {
    if (member.user.id === viewerId) return [];
    const items: ActionMenuItem[] = [];
    if (group.canAdminister) {
      for (const action of ROLE_ACTIONS)
        if (action.role !== member.role) items.push({ label: action.label, onSelect: () => void setRole(member, action.role) });
    }
    if (group.canAdminister || (group.canModerate && member.role === 'member')) {
      items.push({ label: 'Expulsar', onSelect: () => setRemoving({ member, ban: false }), tone: 'danger' });
    }
    if (group.canAdminister) items.push({ label: 'Expulsar y bloquear', onSelect: () => setRemoving({ member, ban: true }), tone: 'danger' });
    return items;
  }

  return (
    <>
      <PeopleList
        list={list}
        label="Miembros"
        loading="Cargando miembros…"
        loadFailed="Error al cargar los miembros"
        empty="Este grupo todavía no tiene miembros"
        error={error}
        render={(member) => {
          const items = actionsFor(member);
          return (
            <PersonItem
              key={member.id}
              user={member.user}
              detail={
                <>
                  <RoleBadge role={member.role} />
                  <span>{memberSince(member.joinedAt)}</span>
                </>
              }
            >
              {items.length > 0 && <ActionMenu label={`Opciones para ${displayNameOf(member.user)}`} items={items} />}
            </PersonItem>
          );
        }}
      />
      {removing && (
        <ConfirmDialog
          title={removing.ban ? '¿Expulsar y bloquear?' : '¿Expulsar del grupo?'}
          message={
            removing.ban
              ? `${displayNameOf(removing.member.user)} saldrá del grupo y no podrá volver a unirse ni solicitarlo.`
              : `${displayNameOf(removing.member.user)} saldrá del grupo.`
          }
          confirmLabel={removing.ban ? 'Expulsar y bloquear' : 'Expulsar'}
          busyLabel="Expulsando…"
          action={() => removeMember(group.id, removing.member.user.id, removing.ban)}
          errorFallback="No se pudo expulsar a esta persona"
          onDone={() => {
            setRemoving(null);
            list.reload();
            onGroupChanged();
          }}
          onCancel={() => setRemoving(null)}
        />
      )}
    </>
  );
}

/**
 * Solicitudes (admins and moderators): oldest first, Aceptar / Rechazar. Read again whenever the
 * pending count changes (`pendingRequests`, kept live by the group's page).
 */
export function RequestsTab({ group, onGroupChanged, onPending }: TabProps & { onPending: (count: number) => void }) {
  const list = usePagedList((cursor, signal) => fetchRequests(group.id, cursor, signal));
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const { reload } = list;

  // A request arrived or was answered elsewhere (another moderator, a withdrawal): read the list again.
  const seen = useRef(group.pendingRequests);
  useEffect(() => {
    if (seen.current === group.pendingRequests) return;
    seen.current = group.pendingRequests;
    reload();
  }, [group.pendingRequests, reload]);

  async function answer(person: PersonRow, approve: boolean) {
    setBusy(person.id);
    setError(null);
    try {
      const { pendingRequests } = await answerRequest(group.id, person.user.id, approve);
      seen.current = pendingRequests;
      onPending(pendingRequests);
      reload();
      if (approve) onGroupChanged();
    } catch (failure) {
      console.debug('Error al responder la solicitud', failure);
      setError(errorMessage(failure, 'No se pudo responder la solicitud'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <PeopleList
      list={list}
      label="Solicitudes"
      loading="Cargando solicitudes…"
      loadFailed="Error al cargar las solicitudes"
      empty="No hay solicitudes pendientes"
      error={error}
      render={(person) => (
        <PersonItem key={person.id} user={person.user} detail={<span>Lo solicitó el {formatDate(person.createdAt)}</span>}>
          <button
            type="button"
            disabled={busy === person.id}
            onClick={() => void answer(person, true)}
            aria-label={`Aceptar a ${displayNameOf(person.user)}`}
            className={`${smallButton} bg-fuchsia-600 text-white hover:bg-fuchsia-700`}
          >
            Aceptar
          </button>
          <button
            type="button"
            disabled={busy === person.id}
            onClick={() => void answer(person, false)}
            aria-label={`Rechazar a ${displayNameOf(person.user)}`}
            className={`${smallButton} text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10`}
          >
            Rechazar
          </button>
        </PersonItem>
      )}
    />
  );
}

/** Bloqueados (the group's admins): newest first, 'Desbloquear' lets them join or ask again. */
export function BansTab({ group }: TabProps) {
  const list = usePagedList((cursor, signal) => fetchBans(group.id, cursor, signal));
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function lift(person: PersonRow) {
    setBusy(person.id);
    setError(null);
    try {
      await unban(group.id, person.user.id);
      list.reload();
    } catch (failure) {
      console.debug('Error al desbloquear', failure);
      setError(errorMessage(failure, 'No se pudo desbloquear a esta persona'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <PeopleList
      list={list}
      label="Bloqueados"
      loading="Cargando bloqueados…"
      loadFailed="Error al cargar los bloqueados"
      empty="No hay nadie bloqueado"
      error={error}
      render={(person) => (
        <PersonItem key={person.id} user={person.user} detail={<span>Bloqueado el {formatDate(person.createdAt)}</span>}>
          <button
            type="button"
            disabled={busy === person.id}
            onClick={() => void lift(person)}
            aria-label={`Desbloquear a ${displayNameOf(person.user)}`}
            className={`${smallButton} text-fuchsia-700 ring-1 ring-fuchsia-300 hover:bg-fuchsia-50 dark:text-fuchsia-300 dark:ring-fuchsia-500/40 dark:hover:bg-white/5`}
          >
            Desbloquear
          </button>
        </PersonItem>
      )}
    />
  );
}
