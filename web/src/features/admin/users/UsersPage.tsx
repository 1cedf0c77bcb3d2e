import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { ROLE_LABELS, USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminUserList, AdminUserRow } from '@tribuna/contracts/api/admin/users';
import { Avatar } from '../../../components/Avatar';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { EmptyState } from '../../../components/admin/EmptyState';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { PageHeader } from '../../../components/admin/PageHeader';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge } from '../../../components/admin/StatusBadge';
import { AdminTable, type AdminColumn } from '../../../components/admin/AdminTable';
import { secondaryButton } from '../../../components/admin/buttons';
import { inputClass } from '../../../components/admin/Field';
import { EditUserDialog, PointsDialog, StatsDialog } from './UserDialogs';
import { ROLE_TONES, USER_STATUS_LABELS, USER_STATUS_TONES, canUnsuspend, userName, userStatus } from './userRules';

/** How long the search box waits after the last key before it searches. */
export const SEARCH_DEBOUNCE_MS = 300;

const ROLE_FILTERS = [['', 'Todos'], ...Object.entries(ROLE_LABELS)] as const;
const STATUS_FILTERS = [
  ['', 'Todos'],
  ['active', 'Activos'],
  ['suspended', 'Suspendidos'],
] as const;

// The row buttons, a little narrower than the shared ones so the four fit one line on a phone.
const actionButton =
  'inline-flex min-h-9 items-center justify-center rounded-full px-2 py-1.5 text-sm font-semibold whitespace-nowrap text-fuchsia-700 transition hover:bg-fuchsia-50 dark:text-fuchsia-300 dark:hover:bg-white/10';
const actionDangerButton =
  'inline-flex min-h-9 items-center justify-center rounded-full px-2 py-1.5 text-sm font-semibold whitespace-nowrap text-rose-700 transition hover:bg-rose-50 dark:text-rose-300 dark:hover:bg-rose-500/10';

type Dialog = { kind: 'edit' | 'points' | 'stats' | 'suspend' | 'unsuspend'; user: AdminUserRow };

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('es')} ${n === 1 ? one : many}`;

/**
 * /admin/usuarios (spec §2 Users): search by name, username or e-mail, role and status filters, the
 * total, pages of 20; each user with Editar, Puntos, Estadísticas and Suspender/Reactivar. The search
 * and filters live in the URL (?q=&role=&status=&page=), so other screens can link to a user.
 */
export function UsersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const role = params.get('role') ?? '';
  const status = params.get('status') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [text, setText] = useState(q);
  const [dialog, setDialog] = useState<Dialog | null>(null);

  const users = useQuery(['admin-users', q, role, status, page], (signal) =>
    callApi('adminUsers', {
      signal,
      query: { q: q || undefined, role: role || undefined, status: status || undefined, page: page > 1 ? String(page) : undefined },
    }),
  );

  /** Changes some of the URL's filters; any change but the page's goes back to page 1. */
  function update(changes: Record<string, string>) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(changes)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        if (!('page' in changes)) next.delete('page');
        return next;
      },
      { replace: true },
    );
  }

  // A link or Back changing ?q= refills the box (as the new ?q= renders).
  const [textFor, setTextFor] = useState(q);
  if (textFor !== q) {
    setTextFor(q);
    setText(q);
  }
  // The box searches once typing pauses.
  useEffect(() => {
    const wanted = text.trim();
    if (wanted === q) return;
    const timer = setTimeout(() => update({ q: wanted }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `update` only goes through setParams (a new function each render)
  }, [text, q]);

  const replaceRow = (row: AdminUserRow) => users.setData((list) => ({ ...list, items: list.items.map((u) => (u.id === row.id ? row : u)) }));
  const close = () => setDialog(null);
  const open = (kind: Dialog['kind'], user: AdminUserRow) => setDialog({ kind, user });

  // Two by two, in the cards and in the table: the four never wrap unevenly. A deleted account has
  // no Reactivar (the server refuses it; its 'Cuenta eliminada' badge says why).
  const actions = (user: AdminUserRow) => {
    const name = userName(user);
    return (
      <div className="grid grid-cols-[auto_auto] justify-start justify-items-start gap-x-2">
        <button type="button" className={actionButton} aria-label={`Editar a ${name}`} onClick={() => open('edit', user)}>
          Editar
        </button>
        <button type="button" className={actionButton} aria-label={`Puntos de ${name}`} onClick={() => open('points', user)}>
          Puntos
        </button>
        <button type="button" className={actionButton} aria-label={`Estadísticas de ${name}`} onClick={() => open('stats', user)}>
          Estadísticas
        </button>
        {user.isSuspended ? (
          canUnsuspend(user) && (
            <button type="button" className={actionButton} aria-label={`Reactivar a ${name}`} onClick={() => open('unsuspend', user)}>
              Reactivar
            </button>
          )
        ) : (
          <button type="button" className={actionDangerButton} aria-label={`Suspender a ${name}`} onClick={() => open('suspend', user)}>
            Suspender
          </button>
        )}
      </div>
    );
  };

  return (
    <div className="space-y-5">
      <PageHeader title="Usuarios" description="Busca cuentas, edita perfiles y roles, ajusta puntos y suspende o reactiva usuarios." />

      <div className="grid grid-cols-2 gap-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Filter label="Buscar" className="col-span-2 sm:col-span-1">
          {(id) => (
            <input
              id={id}
              type="search"
              value={text}
              placeholder="Nombre, usuario o e-mail"
              autoComplete="off"
              spellCheck={false}
              maxLength={100}
              onChange={(e) => setText(e.target.value)}
              className={inputClass}
            />
          )}
        </Filter>
        <Filter label="Rol">
          {(id) => (
            <select id={id} value={role} onChange={(e) => update({ role: e.target.value })} className={inputClass}>
              {ROLE_FILTERS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Filter>
        <Filter label="Estado">
          {(id) => (
            <select id={id} value={status} onChange={(e) => update({ status: e.target.value })} className={inputClass}>
              {STATUS_FILTERS.map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          )}
        </Filter>
      </div>

      {users.status === 'error' ? (
        <ErrorBanner error={users.error} fallback={USER_ADMIN_MESSAGES.loadUsersFailed} onRetry={users.refetch} />
      ) : users.status !== 'ready' ? (
        <ListSkeleton label="Cargando usuarios…" />
      ) : (
        <UserResults list={users.data} actions={actions} onPage={(n) => update({ page: n > 1 ? String(n) : '' })} />
      )}

      {dialog?.kind === 'edit' && (
        <EditUserDialog
          user={dialog.user}
          onSaved={(row) => {
            replaceRow(row);
            close();
          }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'points' && (
        <PointsDialog
          user={dialog.user}
          onAdjusted={(totalPoints) => {
            replaceRow({ ...dialog.user, totalPoints });
            close();
          }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'stats' && <StatsDialog user={dialog.user} onClose={close} />}
      {(dialog?.kind === 'suspend' || dialog?.kind === 'unsuspend') && (
        <SuspendDialog
          dialog={dialog}
          onDone={(row) => {
            replaceRow(row);
            close();
          }}
          onCancel={close}
        />
      )}
    </div>
  );
}

function Filter({ label, className = '', children }: { label: string; className?: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className={`min-w-0 space-y-1.5 ${className}`}>
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

function SuspendDialog({ dialog, onDone, onCancel }: { dialog: Dialog; onDone: (row: AdminUserRow) => void; onCancel: () => void }) {
  const suspend = dialog.kind === 'suspend';
  // Both calls answer the updated row; the dialog's onDone takes none, so it waits here.
  const answer = useRef<AdminUserRow | null>(null);
  return (
    <ConfirmDialog
      title={`${suspend ? 'Suspender' : 'Reactivar'} a ${userName(dialog.user)}`}
      message={suspend ? USER_ADMIN_MESSAGES.confirmSuspend : USER_ADMIN_MESSAGES.confirmUnsuspend}
      confirmLabel={suspend ? 'Suspender' : 'Reactivar'}
      busyLabel={suspend ? 'Suspendiendo…' : 'Reactivando…'}
      action={async () => {
        const params = { userId: dialog.user.id };
        answer.current = await (suspend ? callApi('suspendUser', { params }) : callApi('unsuspendUser', { params }));
      }}
      errorFallback={suspend ? USER_ADMIN_MESSAGES.suspendFailed : USER_ADMIN_MESSAGES.unsuspendFailed}
      onDone={() => answer.current && onDone(answer.current)}
      onCancel={onCancel}
    />
  );
}

/** The table's columns; the first names the row (a row heading). */
function userColumns(actions: (user: AdminUserRow) => ReactNode): AdminColumn<AdminUserRow>[] {
  return [
    {
      header: 'Usuario',
      rowHeader: true,
      cell: (user) => (
        <div className="flex items-center gap-3">
          <Avatar name={userName(user)} src={user.avatarUrl} size="sm" />
          <div className="min-w-0">
            <p className="max-w-64 truncate font-semibold">{userName(user)}</p>
            {user.username && <p className="max-w-64 truncate text-xs text-slate-500 dark:text-slate-400">@{user.username}</p>}
            <p className="max-w-64 truncate text-xs text-slate-500 dark:text-slate-400">{user.email ?? USER_ADMIN_MESSAGES.noEmail}</p>
          </div>
        </div>
      ),
    },
    { header: 'Rol', cell: (user) => <RoleBadge user={user} /> },
    { header: 'Estado', cell: (user) => <UserStatusBadge user={user} /> },
    { header: 'Puntos', className: 'text-right', cellClassName: 'font-semibold tabular-nums', cell: (user) => user.totalPoints.toLocaleString('es') },
    {
      header: 'Actividad',
      cellClassName: 'text-xs whitespace-nowrap text-slate-600 tabular-nums dark:text-slate-400',
      cell: (user) => (
        <>
          <span className="block">{plural(user.voteCount, 'voto', 'votos')}</span>
          <span className="block">{plural(user.postCount, 'publicación', 'publicaciones')}</span>
          <span className="block">{plural(user.commentCount, 'comentario', 'comentarios')}</span>
        </>
      ),
    },
    { header: 'Acciones', cell: actions },
  ];
}

function UserResults({ list, actions, onPage }: { list: AdminUserList; actions: (user: AdminUserRow) => ReactNode; onPage: (page: number) => void }) {
  const columns = userColumns(actions);
  // A capped total (a search matching more than 1,000 users) does not tell the last page: the
  // next one exists while this one is full.
  const pages = Math.max(1, Math.ceil(list.total / list.pageSize));
  const hasNext = list.totalCapped ? list.items.length === list.pageSize : list.page < pages;
  return (
    <div className="space-y-3">
      <p role="status" className="text-sm font-semibold text-slate-600 dark:text-slate-300">
        {list.totalCapped ? `Más de ${plural(list.total, 'usuario', 'usuarios')}` : plural(list.total, 'usuario', 'usuarios')}
      </p>
      {list.items.length === 0 ? (
        <EmptyState message={USER_ADMIN_MESSAGES.noUsers} />
      ) : (
        // Cards on phones and tablets (two columns from sm), the table on wide screens.
        <AdminTable
          label="Usuarios"
          rows={list.items}
          rowKey={(user) => user.id}
          columns={columns}
          breakpoint="xl"
          listClassName="grid gap-3 sm:grid-cols-2"
          cardClassName="flex flex-col"
          compact
          card={(user) => (
            <>
              <div className="flex flex-1 items-start gap-3">
                <Avatar name={userName(user)} src={user.avatarUrl} />
                <div className="min-w-0 flex-1">
                  <p className="truncate font-bold">{userName(user)}</p>
                  {user.username && <p className="truncate text-sm text-slate-600 dark:text-slate-400">@{user.username}</p>}
                  <p className="truncate text-sm text-slate-600 dark:text-slate-400">{user.email ?? USER_ADMIN_MESSAGES.noEmail}</p>
                  <div className="mt-2 flex flex-wrap items-center gap-2">
                    <RoleBadge user={user} />
                    <UserStatusBadge user={user} />
                  </div>
                  <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                    <span className="font-semibold text-slate-900 tabular-nums dark:text-white">{plural(user.totalPoints, 'punto', 'puntos')}</span> ·{' '}
                    <Counts user={user} />
                  </p>
                </div>
              </div>
              <div className="mt-3 border-t border-slate-100 pt-2 dark:border-white/5">{actions(user)}</div>
            </>
          )}
        />
      )}
      {(list.page > 1 || hasNext) && (
        <nav aria-label="Páginas de usuarios" className="flex items-center justify-between gap-3">
          <button type="button" className={secondaryButton} disabled={list.page <= 1} onClick={() => onPage(list.page - 1)}>
            Anterior
          </button>
          <p className="text-sm text-slate-600 tabular-nums dark:text-slate-300">
            {list.totalCapped ? `Página ${list.page}` : `Página ${list.page} de ${pages}`}
          </p>
          <button type="button" className={secondaryButton} disabled={!hasNext} onClick={() => onPage(list.page + 1)}>
            Siguiente
          </button>
        </nav>
      )}
    </div>
  );
}

function RoleBadge({ user }: { user: AdminUserRow }) {
  return <StatusBadge tone={ROLE_TONES[user.role]}>{ROLE_LABELS[user.role]}</StatusBadge>;
}

function UserStatusBadge({ user }: { user: AdminUserRow }) {
  const status = userStatus(user);
  return <StatusBadge tone={USER_STATUS_TONES[status]}>{USER_STATUS_LABELS[status]}</StatusBadge>;
}

function Counts({ user }: { user: AdminUserRow }) {
  return (
    <span className="tabular-nums">
      {plural(user.voteCount, 'voto', 'votos')} · {plural(user.postCount, 'publicación', 'publicaciones')} ·{' '}
      {plural(user.commentCount, 'comentario', 'comentarios')}
    </span>
  );
}
