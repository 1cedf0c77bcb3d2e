import { useEffect, useId, useRef, useState } from 'react';
import { ABUSE_LIMITS, ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { AbuseVote, AbuseVoteList, VoidResult } from '@tribuna/contracts/api/admin/abuse';
import { Alert } from '../../../components/Alert';
import { Modal } from '../../../components/Modal';
import { callApi } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge } from '../../../components/admin/StatusBadge';
import { dangerButton, secondaryButton } from '../../../components/admin/buttons';
import { abuseError, formatCount, plural, voidResultText } from './abuseFormat';

/** Whose votes: one device's or one user's (exactly one of the two, as GET /api/admin/abuse/votes takes). */
export type VotesTarget = { kind: 'device'; fingerprint: string; label: string } | { kind: 'user'; userId: string; label: string };

const textareaClass =
  'block w-full rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none transition placeholder:text-slate-400 focus:border-fuchsia-500 focus:ring-2 focus:ring-fuchsia-500/30 aria-invalid:border-rose-500 sm:text-sm dark:border-white/15 dark:bg-ink-800 dark:text-slate-100';

/**
 * The votes behind a flag, to review and clean up: each vote (poll, option, user, points, date,
 * voided with who and why), selectable; 'Anular votos seleccionados' with a required reason after a
 * confirmation (POST /api/admin/abuse/votes/void); voided ones can be restored. The confirmation
 * replaces this dialog while it is open (no dialog over a dialog), and this one comes back as it was.
 */
export function AbuseVotesDialog({ target, onClose }: { target: VotesTarget; onClose: () => void }) {
  const query = target.kind === 'device' ? { fingerprint: target.fingerprint } : { userId: target.userId };
  const votes = useQuery(['abuse-votes', query], (signal) => callApi('abuseVotes', { query, signal }));
  const { setData } = votes;
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [restoring, setRestoring] = useState(false);
  const [actionError, setActionError] = useState<unknown>(null);
  const [result, setResult] = useState<string | null>(null);
  const reasonId = useId();
  const selectAllRef = useRef<HTMLInputElement>(null);
  const voidOutcome = useRef<VoidResult | null>(null);

  const items = votes.status === 'ready' ? votes.data.items : [];
  const chosen = items.filter((v) => selected.has(v.id));
  const toVoid = chosen.filter((v) => !v.voided);
  const toRestore = chosen.filter((v) => v.voided);
  const allSelected = items.length > 0 && chosen.length === items.length;

  useEffect(() => {
    if (selectAllRef.current) selectAllRef.current.indeterminate = chosen.length > 0 && !allSelected;
  }, [chosen.length, allSelected]);

  function toggle(id: string, on: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  }

  /** After a change: the list read again in place, the selection cleared, what happened said. */
  async function applied(action: 'void' | 'restore', outcome: VoidResult) {
    setResult(voidResultText(action, outcome.changed, outcome.skipped));
    setSelected(new Set());
    if (action === 'void') setReason('');
    try {
      setData(await callApi('abuseVotes', { query }));
    } catch (error) {
      console.debug('No se pudieron actualizar los votos', error);
    }
  }

  function askVoid() {
    setResult(null);
    setActionError(null);
    if (reason.trim().length < ABUSE_LIMITS.voidReasonMin) {
      setReasonError(ABUSE_MESSAGES.voidReasonRequired);
      document.getElementById(reasonId)?.focus();
      return;
    }
    setReasonError(null);
    setConfirming(true);
  }

  async function restore() {
    if (restoring || toRestore.length === 0) return;
    setResult(null);
    setActionError(null);
    setRestoring(true);
    try {
      const outcome = await callApi('restoreVotes', { body: { voteIds: toRestore.map((v) => v.id) } });
      await applied('restore', outcome);
    } catch (error) {
      setActionError(error);
    } finally {
      setRestoring(false);
    }
  }

  if (confirming) {
    const ids = toVoid.map((v) => v.id);
    const why = reason.trim();
    return (
      <ConfirmDialog
        title="Anular votos"
        message={
          <p>
            Se anularán {plural(ids.length, 'voto', 'votos')}: dejarán de contar en los resultados y en los totales en vivo. Quedan guardados con tu nombre y el
            motivo, y se pueden restaurar.
          </p>
        }
        confirmLabel="Anular votos"
        busyLabel="Anulando…"
        errorFallback="Error al anular los votos"
        action={async () => {
          voidOutcome.current = await callApi('voidVotes', { body: { voteIds: ids, reason: why } });
        }}
        onDone={() => {
          setConfirming(false);
          if (voidOutcome.current) void applied('void', voidOutcome.current);
        }}
        onCancel={() => setConfirming(false)}
      />
    );
  }

  return (
    <Modal title={`Votos de ${target.label}`} onClose={onClose} size="lg">
      <div className="space-y-4">
        {votes.status === 'error' && <Alert>{abuseError(errorText(votes.error))}</Alert>}
        {(votes.status === 'loading' || votes.status === 'idle') && <ListSkeleton rows={3} label="Cargando votos…" />}
        {votes.status === 'ready' && (
          <VoteList
            list={votes.data}
            selected={selected}
            allSelected={allSelected}
            selectAllRef={selectAllRef}
            onToggle={toggle}
            onToggleAll={(on) => setSelected(on ? new Set(items.map((v) => v.id)) : new Set())}
          />
        )}

        {result && <Alert tone="success">{result}</Alert>}
        <ErrorBanner error={actionError} fallback="Error al actualizar los votos" />

        {votes.status === 'ready' && items.length > 0 && (
          <div className="space-y-3 border-t border-slate-200 pt-4 dark:border-white/10">
            <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
              {chosen.length === 0
                ? 'Ningún voto seleccionado.'
                : `${plural(chosen.length, 'seleccionado', 'seleccionados')}: ${formatCount(toVoid.length)} por anular, ${plural(toRestore.length, 'anulado', 'anulados')}.`}
            </p>
            <div className="space-y-1.5">
              <label htmlFor={reasonId} className="block text-sm font-semibold text-slate-700 dark:text-slate-200">
                Motivo de la anulación
                <span aria-hidden="true" className="ml-0.5 text-rose-600 dark:text-rose-400">
                  *
                </span>
              </label>
              <textarea
                id={reasonId}
                rows={2}
                maxLength={ABUSE_LIMITS.voidReason}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                aria-required="true"
                aria-invalid={reasonError ? true : undefined}
                aria-describedby={reasonError ? `${reasonId}-error` : undefined}
                className={textareaClass}
                placeholder="p. ej. Varias cuentas votando desde el mismo dispositivo"
              />
              {reasonError && (
                <p id={`${reasonId}-error`} className="text-sm font-medium text-rose-700 dark:text-rose-300">
                  {reasonError}
                </p>
              )}
            </div>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <button type="button" className={secondaryButton} disabled={toRestore.length === 0 || restoring} onClick={() => void restore()}>
                {restoring ? 'Restaurando…' : 'Restaurar'}
              </button>
              <button type="button" className={dangerButton} disabled={toVoid.length === 0} onClick={askVoid}>
                Anular votos seleccionados
              </button>
            </div>
          </div>
        )}
      </div>
    </Modal>
  );
}

function errorText(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'No se pudieron cargar los votos';
}

interface VoteListProps {
  list: AbuseVoteList;
  selected: ReadonlySet<string>;
  allSelected: boolean;
  selectAllRef: React.RefObject<HTMLInputElement | null>;
  onToggle: (id: string, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
}

function VoteList({ list, selected, allSelected, selectAllRef, onToggle, onToggleAll }: VoteListProps) {
  if (list.items.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-400">No hay votos de este dispositivo o usuario.</p>;
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="inline-flex min-h-9 cursor-pointer items-center gap-2.5 text-sm font-semibold">
          <input
            ref={selectAllRef}
            type="checkbox"
            checked={allSelected}
            onChange={(e) => onToggleAll(e.target.checked)}
            className="size-5 accent-fuchsia-600"
          />
          Seleccionar todos
        </label>
        <span className="text-sm text-slate-500 dark:text-slate-400">{plural(list.items.length, 'voto', 'votos')}</span>
      </div>
      {list.truncated && (
        <p className="text-sm text-amber-800 dark:text-amber-200">Se muestran los {formatCount(ABUSE_LIMITS.votesListed)} votos más recientes.</p>
      )}
      <ul className="divide-y divide-slate-200 rounded-2xl ring-1 ring-slate-200 dark:divide-white/10 dark:ring-white/10" aria-label="Votos">
        {list.items.map((vote) => (
          <VoteRow key={vote.id} vote={vote} checked={selected.has(vote.id)} onToggle={onToggle} />
        ))}
      </ul>
    </div>
  );
}

function VoteRow({ vote, checked, onToggle }: { vote: AbuseVote; checked: boolean; onToggle: (id: string, on: boolean) => void }) {
  const id = useId();
  const who = vote.displayName ?? 'Usuario sin nombre';
  return (
    <li className={`flex items-start gap-3 p-3 ${vote.voided ? 'bg-slate-50 dark:bg-white/5' : ''}`} data-vote-id={vote.id}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(e) => onToggle(vote.id, e.target.checked)}
        className="mt-0.5 size-5 shrink-0 accent-fuchsia-600"
        aria-describedby={vote.voided ? `${id}-details ${id}-voided` : `${id}-details`}
      />
      <div className="min-w-0 flex-1 space-y-0.5 text-sm">
        <label htmlFor={id} className="block cursor-pointer font-semibold break-words">
          {vote.pollTitle}: {vote.optionLabel}
        </label>
        <p id={`${id}-details`} className="text-slate-600 dark:text-slate-400">
          {who} · {plural(vote.points, 'punto', 'puntos')} · <time dateTime={vote.createdAt}>{formatDateTime(vote.createdAt)}</time>
        </p>
        {vote.voided && (
          <p id={`${id}-voided`} className="flex flex-wrap items-center gap-1.5 text-slate-600 dark:text-slate-400">
            <StatusBadge tone="rose">Anulado</StatusBadge>
            <span className="break-words">
              por {vote.voided.byName ?? 'un administrador'} el {formatDateTime(vote.voided.at)}: {vote.voided.reason}
            </span>
          </p>
        )}
      </div>
    </li>
  );
}
