import { useId, useState } from 'react';
import type { GroupDetail } from '@tribuna/contracts/api/groups';
import { GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { Alert } from '../../components/Alert';
import { Modal } from '../../components/Modal';
import { ApiError, errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useQuery } from '../../lib/useQuery';
import { fetchMembers, joinGroup, leaveGroup } from './api';

const primary =
  'brand-gradient inline-flex min-h-11 items-center rounded-full px-5 text-sm font-bold text-white shadow-lg shadow-fuchsia-600/25 hover:opacity-90 disabled:opacity-60';
const secondary =
  'inline-flex min-h-11 items-center rounded-full px-5 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 hover:bg-slate-100 disabled:opacity-60 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10';
const danger = 'inline-flex min-h-11 items-center rounded-full bg-rose-600 px-5 text-sm font-bold text-white hover:bg-rose-700 disabled:opacity-60';

const isLastAdmin = (error: unknown) => error instanceof ApiError && error.status === 409 && error.message === GROUP_MESSAGES.lastAdmin;

/** The members who could take over from the last admin: the group's first page of members but the viewer. */
function SuccessorPicker({ groupId, value, onChange }: { groupId: string; value: string | null; onChange: (userId: string) => void }) {
  const viewerId = useSessionStore((s) => s.user?.id ?? null);
  const members = useQuery(['group-successors', groupId], (signal) => fetchMembers(groupId, null, signal));
  const name = useId();
  if (members.status === 'error') return <Alert>{errorMessage(members.error, 'Error al cargar los miembros')}</Alert>;
  if (members.status !== 'ready')
    return (
      <p role="status" className="text-sm text-slate-500 dark:text-slate-400">
        Cargando miembros…
      </p>
    );
  const others = members.data.items.filter((member) => member.user.id !== viewerId);
  if (others.length === 0) return <p className="text-sm">Eres el único miembro. Si ya no necesitas el grupo, elimínalo desde el menú de opciones.</p>;
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1 text-sm font-semibold">Elige al nuevo administrador</legend>
      <div className="max-h-60 space-y-1 overflow-y-auto">
        {others.map((member) => (
          <label key={member.id} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-2xl px-3 hover:bg-slate-100 dark:hover:bg-white/5">
            <input
              type="radio"
              name={name}
              value={member.user.id}
              checked={value === member.user.id}
              onChange={() => onChange(member.user.id)}
              className="size-4 accent-fuchsia-600"
            />
            <span className="truncate text-sm font-semibold">{displayNameOf(member.user)}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * 'Salir del grupo', confirmed. The group's last admin is answered 409 (lastAdmin): the dialog then
 * asks for a successor among the members and leaves naming them.
 */
function LeaveDialog({ group, onLeft, onClose }: { group: GroupDetail; onLeft: (group: GroupDetail) => void; onClose: () => void }) {
  const [needsSuccessor, setNeedsSuccessor] = useState(false);
  const [successorId, setSuccessorId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function leave() {
    if (needsSuccessor && !successorId) return setError('Elige a quién nombrar administrador');
    setBusy(true);
    setError(null);
    try {
      onLeft(await leaveGroup(group.id, needsSuccessor ? (successorId ?? undefined) : undefined));
      onClose();
    } catch (failure) {
      setBusy(false);
      if (isLastAdmin(failure) && !needsSuccessor) {
        setNeedsSuccessor(true);
        return;
      }
      console.debug('Error al salir del grupo', failure);
      setError(errorMessage(failure, 'No se pudo salir del grupo'));
    }
  }

  return (
    <Modal title="¿Salir del grupo?" onClose={() => (busy ? undefined : onClose())}>
      <div className="space-y-4">
        {needsSuccessor ? (
          <>
            <p className="text-sm text-slate-600 dark:text-slate-300">{GROUP_MESSAGES.lastAdmin}</p>
            <SuccessorPicker groupId={group.id} value={successorId} onChange={setSuccessorId} />
          </>
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {group.privacy === 'private'
              ? 'Dejarás de ver sus publicaciones y tendrás que solicitar unirte de nuevo.'
              : `Dejarás de ser miembro de ${group.name}.`}
          </p>
        )}
        {error && <Alert>{error}</Alert>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <button type="button" onClick={onClose} className={secondary}>
            Cancelar
          </button>
          <button type="button" onClick={() => void leave()} disabled={busy} className={danger}>
            {busy ? 'Saliendo…' : needsSuccessor ? 'Nombrar y salir' : 'Salir del grupo'}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/**
 * What the viewer may do from the group's header, by their relation: 'Unirme' (public) or
 * 'Solicitar unirme' (private), 'Solicitud enviada' with 'Cancelar solicitud', 'Salir del grupo'
 * (members), or why they cannot join (banned). `onChange` gets the group as the server answered.
 */
export function GroupActions({ group, onChange }: { group: GroupDetail; onChange: (group: GroupDetail) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [leaving, setLeaving] = useState(false);

  async function run(action: () => Promise<GroupDetail>, fallback: string) {
    setBusy(true);
    setError(null);
    try {
      onChange(await action());
    } catch (failure) {
      console.debug(fallback, failure);
      setError(errorMessage(failure, fallback));
    } finally {
      setBusy(false);
    }
  }

  let actions;
  switch (group.relation) {
    case 'none':
      actions = (
        <button type="button" disabled={busy} onClick={() => void run(() => joinGroup(group.id), 'No se pudo unir al grupo')} className={primary}>
          {group.privacy === 'public' ? 'Unirme' : 'Solicitar unirme'}
        </button>
      );
      break;
    case 'requested':
      actions = (
        <>
          <span
            role="status"
            className="inline-flex min-h-11 items-center rounded-full bg-slate-100 px-4 text-sm font-semibold text-slate-700 dark:bg-white/10 dark:text-slate-200"
          >
            Solicitud enviada
          </span>
          <button type="button" disabled={busy} onClick={() => void run(() => leaveGroup(group.id), 'No se pudo cancelar la solicitud')} className={secondary}>
            Cancelar solicitud
          </button>
        </>
      );
      break;
    case 'banned':
      actions = <p className="text-sm font-semibold text-rose-700 dark:text-rose-300">{GROUP_MESSAGES.banned}</p>;
      break;
    default:
      actions = (
        <button type="button" onClick={() => setLeaving(true)} className={secondary}>
          Salir del grupo
        </button>
      );
  }

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">{actions}</div>
      {error && (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
      {leaving && <LeaveDialog group={group} onLeft={onChange} onClose={() => setLeaving(false)} />}
    </div>
  );
}
