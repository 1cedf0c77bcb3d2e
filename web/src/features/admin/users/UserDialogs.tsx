import { useId, useState } from 'react';
import { ADMIN_LIMITS, ROLE_LABELS, USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminUserRow, AdminUserStats } from '@tribuna/contracts/api/admin/users';
import type { ProfileGroup } from '@tribuna/contracts/api/profiles';
import { Modal } from '../../../components/Modal';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { useSessionStore } from '../../../lib/session/sessionStore';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { FormDialog } from '../../../components/admin/FormDialog';
import { LinesSkeleton } from '../../../components/admin/Skeletons';
import { secondaryButton } from '../../../components/admin/buttons';
import { SelectField, TextField } from '../../../components/admin/fields';
import { DeleteGroupDialog, UserGroups, useUserGroups } from './UserGroups';
import { editBody, editFormOf, normalizeUsername, parsePoints, reasonLabel, userName, type EditUserForm } from './userRules';

const ROLES = Object.keys(ROLE_LABELS) as Array<keyof typeof ROLE_LABELS>;

const textareaClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none transition placeholder:text-slate-400 focus:border-fuchsia-500 focus:ring-2 focus:ring-fuchsia-500/30 sm:text-sm dark:border-white/15 dark:bg-ink-800 dark:text-slate-100';

interface UserDialogProps {
  user: AdminUserRow;
  onClose: () => void;
}

/** Editar: display name, username, bio, avatar URL and role (spec §5 User edit). */
export function EditUserDialog({ user, onSaved, onClose }: UserDialogProps & { onSaved: (user: AdminUserRow) => void }) {
  const ownId = useSessionStore((state) => state.user?.id);
  const [form, setForm] = useState<EditUserForm>(() => editFormOf(user));
  const [error, setError] = useState<unknown>(null);
  const [roleError, setRoleError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const bioId = useId();
  const set = <K extends keyof EditUserForm>(key: K, value: EditUserForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit() {
    // The server refuses it too; saying so here spares the round trip.
    if (user.id === ownId && user.role === 'admin' && form.role !== 'admin') {
      setRoleError(USER_ADMIN_MESSAGES.cannotDemoteSelf);
      return;
    }
    const body = editBody(user, form);
    if (Object.keys(body).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onSaved(await callApi('updateAdminUser', { params: { userId: user.id }, body }));
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      title={`Editar a ${userName(user)}`}
      submitLabel="Guardar cambios"
      busy={busy}
      error={error}
      errorFallback={USER_ADMIN_MESSAGES.updateUserFailed}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextField label="Nombre visible" value={form.displayName} maxLength={200} autoComplete="off" onChange={(e) => set('displayName', e.target.value)} />
      <TextField
        label="Nombre de usuario"
        value={form.username}
        maxLength={80}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        hint="Se muestra como @usuario; se guarda en minúsculas."
        onChange={(e) => set('username', normalizeUsername(e.target.value))}
      />
      <div className="space-y-1.5">
        <label htmlFor={bioId} className="block text-sm font-semibold text-slate-700 dark:text-slate-200">
          Biografía
        </label>
        <textarea id={bioId} rows={3} maxLength={2000} value={form.bio} onChange={(e) => set('bio', e.target.value)} className={textareaClass} />
      </div>
      <TextField
        label="URL del avatar"
        type="url"
        inputMode="url"
        value={form.avatarUrl}
        maxLength={4096}
        placeholder="https://…"
        onChange={(e) => set('avatarUrl', e.target.value)}
      />
      <SelectField
        label="Rol"
        value={form.role}
        error={roleError}
        onChange={(e) => {
          set('role', e.target.value as EditUserForm['role']);
          setRoleError(null);
        }}
      >
        {ROLES.map((role) => (
          <option key={role} value={role}>
            {ROLE_LABELS[role]}
          </option>
        ))}
      </SelectField>
    </FormDialog>
  );
}

/** Puntos: a non-zero whole number (negative subtracts) and an optional description (spec §5 Points adjustment). */
export function PointsDialog({ user, onAdjusted, onClose }: UserDialogProps & { onAdjusted: (totalPoints: number) => void }) {
  const [points, setPoints] = useState('');
  const [description, setDescription] = useState('');
  const [pointsError, setPointsError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const parsed = parsePoints(points);
    if ('error' in parsed) {
      setPointsError(parsed.error);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const text = description.trim();
      const result = await callApi('adjustUserPoints', {
        params: { userId: user.id },
        body: { points: parsed.points, ...(text ? { description: text } : {}) },
      });
      onAdjusted(result.totalPoints);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      title={`Ajustar puntos de ${userName(user)}`}
      submitLabel="Ajustar puntos"
      busy={busy}
      error={error}
      errorFallback={USER_ADMIN_MESSAGES.adjustPointsFailed}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Puntos actuales: <strong className="tabular-nums text-slate-900 dark:text-white">{user.totalPoints.toLocaleString('es')}</strong>
      </p>
      <TextField
        label="Puntos"
        required
        inputMode="numeric"
        autoComplete="off"
        value={points}
        error={pointsError}
        hint="Un número entero; negativo para restar."
        onChange={(e) => {
          setPoints(e.target.value);
          setPointsError(null);
        }}
      />
      <TextField
        label="Descripción"
        value={description}
        maxLength={ADMIN_LIMITS.pointsDescription}
        placeholder={USER_ADMIN_MESSAGES.defaultPointsDescription}
        onChange={(e) => setDescription(e.target.value)}
      />
    </FormDialog>
  );
}

/** Estadísticas: votes, posts, comments, total points, points by reason, and the user's groups (each may be deleted). */
export function StatsDialog({ user, onClose }: UserDialogProps) {
  const stats = useQuery(['admin-user-stats', user.id], (signal) => callApi('adminUserStats', { signal, params: { userId: user.id } }));
  const groups = useUserGroups(user.id);
  const [deleting, setDeleting] = useState<ProfileGroup | null>(null);
  if (deleting) {
    return (
      <DeleteGroupDialog
        group={deleting}
        onDone={() => {
          setDeleting(null);
          groups.refetch();
        }}
        onCancel={() => setDeleting(null)}
      />
    );
  }
  return (
    <Modal title={`Estadísticas de ${userName(user)}`} onClose={onClose}>
      <div className="space-y-4">
        {stats.status === 'error' ? (
          <ErrorBanner error={stats.error} fallback={USER_ADMIN_MESSAGES.statsFailed} onRetry={stats.refetch} />
        ) : stats.status !== 'ready' ? (
          <div role="status" aria-live="polite">
            <span className="sr-only">Cargando estadísticas…</span>
            <LinesSkeleton lines={4} />
          </div>
        ) : (
          <StatsBody stats={stats.data} />
        )}
        <UserGroups groups={groups} onDelete={setDeleting} />
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className={secondaryButton}>
            Cerrar
          </button>
        </div>
      </div>
    </Modal>
  );
}

function StatsBody({ stats }: { stats: AdminUserStats }) {
  const figures: Array<[string, number]> = [
    ['Votos', stats.votes],
    ['Publicaciones', stats.posts],
    ['Comentarios', stats.comments],
    ['Puntos totales', stats.totalPoints],
  ];
  return (
    <>
      <dl className="grid grid-cols-2 gap-3">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-xl bg-slate-50 p-3 ring-1 ring-slate-200 dark:bg-white/5 dark:ring-white/10">
            <dt className="text-xs font-semibold text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className="text-xl font-black tabular-nums">{value.toLocaleString('es')}</dd>
          </div>
        ))}
      </dl>
      {stats.pointsByReason.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">Sin movimientos de puntos.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <caption className="mb-2 text-left text-sm font-bold">Puntos por motivo</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-500 dark:border-white/10 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-2 font-semibold">
                Motivo
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Puntos
              </th>
              <th scope="col" className="py-2 text-right font-semibold">
                Movimientos
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-white/5">
            {stats.pointsByReason.map((row) => (
              <tr key={row.reason}>
                <th scope="row" className="py-2 font-medium">
                  {reasonLabel(row.reason)}
                </th>
                <td className="py-2 text-right tabular-nums">{row.points.toLocaleString('es')}</td>
                <td className="py-2 text-right tabular-nums">{row.entries.toLocaleString('es')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
