import { useState } from 'react';
import type { AdminPollView } from '@tribuna/contracts/api/admin/polls';
import type { PollStatus } from '@tribuna/contracts/api/pollStatus';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { PUSH_ADMIN_TEXTS } from '@tribuna/contracts/pushRules';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { ListState } from '../../../components/admin/ListState';
import { PageHeader } from '../../../components/admin/PageHeader';
import { StatusBadge, type BadgeTone } from '../../../components/admin/StatusBadge';
import { AdminTable, type AdminColumn } from '../../../components/admin/AdminTable';
import { primaryButton, rowButton, rowDangerButton } from '../../../components/admin/buttons';
import { useCreateParam } from '../../../components/admin/useCreateParam';
import { usePendingIds } from '../../../components/admin/usePendingIds';
import { PlusIcon } from '../icons';
import { SeasonFilter, seasonLabel, useAdminSeasons } from '../../../components/admin/SeasonFilter';
import { plural } from '../../../lib/plural';
import { POLL_STATUS_LABELS } from './pollForm';
import { PollFormModal } from './PollFormModal';
import { NotifyFansDialog, NotifyOffer, type NotifyReason } from './NotifyFans';

const STATUS_TONES: Record<PollStatus, BadgeTone> = { active: 'green', draft: 'amber', closed: 'slate' };

type Action = 'activate' | 'close' | 'reopen' | 'feature';
const ACTION_FALLBACKS: Record<Action, string> = {
  activate: ADMIN_MESSAGES.activatePollFailed,
  close: ADMIN_MESSAGES.closePollFailed,
  reopen: ADMIN_MESSAGES.activatePollFailed,
  feature: ADMIN_MESSAGES.featurePollFailed,
};

/**
 * The row actions a poll offers (spec §2): Editar always, Fijar en Landing unless featured or a
 * draft (home shows the featured poll whatever its status, a closed one with its final results, but
 * a draft is never public: the server refuses it), Cerrar while it is active (an active poll past its
 * end date already shows as closed), Reabrir when it was closed, Activar for a draft, Eliminar always.
 */
export function pollActions(poll: Pick<AdminPollView, 'status' | 'effectiveStatus' | 'isFeatured'>): Array<Action | 'edit' | 'delete'> {
  const actions: Array<Action | 'edit' | 'delete'> = ['edit'];
  if (poll.status === 'draft') actions.push('activate');
  if (!poll.isFeatured && poll.status !== 'draft') actions.push('feature');
  if (poll.effectiveStatus === 'active') actions.push('close');
  if (poll.status === 'closed') actions.push('reopen');
  actions.push('delete');
  return actions;
}

const ACTION_LABELS: Record<Action | 'edit' | 'delete', string> = {
  edit: 'Editar',
  activate: 'Activar',
  feature: 'Fijar en Landing',
  close: 'Cerrar',
  reopen: 'Reabrir',
  delete: 'Eliminar',
};

type Editing = { poll: AdminPollView | null } | null;
type Failure = { error: unknown; fallback: string };

/** /admin/encuestas: polls by season, their actions, the create/edit modal and delete (spec §2 Polls). */
export function PollsPage() {
  const [createRequested, clearCreate] = useCreateParam();
  const [seasonId, setSeasonId] = useState('');
  const [editingState, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<AdminPollView | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  // After Activar or Fijar en Landing of an active poll: 'Notificar a los fans' is offered, then confirmed.
  const [offer, setOffer] = useState<{ poll: AdminPollView; reason: NotifyReason } | null>(null);
  const [notifying, setNotifying] = useState<AdminPollView | null>(null);
  const [notified, setNotified] = useState<string | null>(null);
  const { pending, track } = usePendingIds();
  const seasons = useAdminSeasons();
  const polls = useQuery(['admin-polls', seasonId], (signal) =>
    callApi('adminPolls', { signal, query: { seasonId: seasonId || undefined } }).then((r) => r.polls),
  );
  const { setData } = polls;

  // ?nuevo=1 (the dashboard's quick action) opens the create modal.
  const editing: Editing = editingState ?? (createRequested ? { poll: null } : null);

  function closeForm() {
    setEditing(null);
    if (createRequested) clearCreate();
  }

  /** Puts a poll the server answered in the list; a featured one is the only featured one. */
  function replace(updated: AdminPollView) {
    setData((list) =>
      list.map((p) => {
        if (p.id === updated.id) return updated;
        return updated.isFeatured && p.isFeatured ? { ...p, isFeatured: false } : p;
      }),
    );
  }

  function onSaved(saved: AdminPollView, created: boolean) {
    const matches = !seasonId || saved.seasonId === seasonId;
    if (created) {
      if (matches) setData((list) => [saved, ...list.map((p) => (saved.isFeatured && p.isFeatured ? { ...p, isFeatured: false } : p))]);
    } else {
      replace(saved);
    }
    closeForm();
  }

  async function run(poll: AdminPollView, action: Action) {
    if (pending.has(poll.id)) return;
    setFailure(null);
    setNotified(null);
    await track(poll.id, async () => {
      try {
        const updated =
          action === 'feature'
            ? await callApi('featurePoll', { params: { pollId: poll.id } })
            : await callApi('setPollStatus', { params: { pollId: poll.id }, body: { status: action === 'close' ? 'closed' : 'active' } });
        replace(updated);
        if ((action === 'activate' || action === 'feature') && updated.effectiveStatus === 'active') setOffer({ poll: updated, reason: action });
        else if (offer?.poll.id === updated.id) setOffer(null);
      } catch (error) {
        console.debug(ACTION_FALLBACKS[action], error);
        setFailure({ error, fallback: ACTION_FALLBACKS[action] });
      }
    });
  }

  const seasonList = seasons.status === 'ready' ? seasons.data : [];
  const seasonName = (p: AdminPollView) => seasonLabel({ realityName: p.realityName, number: p.seasonNumber });

  const badges = (poll: AdminPollView) => (
    <div className="flex flex-wrap items-center gap-1.5">
      <StatusBadge tone={STATUS_TONES[poll.effectiveStatus]}>
        {poll.effectiveStatus === 'active' && <span aria-hidden="true" className="size-1.5 rounded-full bg-emerald-500" />}
        {POLL_STATUS_LABELS[poll.effectiveStatus]}
      </StatusBadge>
      {poll.isFeatured && <StatusBadge tone="fuchsia">Principal</StatusBadge>}
    </div>
  );

  const actions = (poll: AdminPollView) => (
    <div className="flex flex-wrap gap-1">
      {pollActions(poll).map((action) => {
        const label = ACTION_LABELS[action];
        const onClick = action === 'edit' ? () => setEditing({ poll }) : action === 'delete' ? () => setDeleting(poll) : () => void run(poll, action);
        return (
          <button
            key={action}
            type="button"
            onClick={onClick}
            disabled={pending.has(poll.id) && action !== 'edit'}
            aria-label={`${label}: ${poll.title}`}
            className={`${action === 'delete' ? rowDangerButton : rowButton} disabled:cursor-wait disabled:opacity-60`}
          >
            {label}
          </button>
        );
      })}
    </div>
  );

  const columns: AdminColumn<AdminPollView>[] = [
    { header: 'Encuesta', cellClassName: 'max-w-xs font-semibold break-words', cell: (poll) => poll.title },
    { header: 'Temporada', cellClassName: 'text-slate-600 dark:text-slate-300', cell: seasonName },
    { header: 'Estado', cell: badges },
    { header: 'Votos', className: 'text-right', cellClassName: 'tabular-nums', cell: (poll) => poll.voteCount.toLocaleString('es') },
    { header: 'Acciones', cell: actions },
  ];

  return (
    <div className="space-y-5">
      <PageHeader title="Encuestas" description="Crea, activa, cierra y destaca las encuestas de cada temporada.">
        <button type="button" onClick={() => setEditing({ poll: null })} className={primaryButton}>
          <PlusIcon className="size-4" />
          Nueva encuesta
        </button>
      </PageHeader>

      <SeasonFilter seasons={seasonList} value={seasonId} onChange={setSeasonId} />
      <ErrorBanner error={seasons.status === 'error' ? seasons.error : null} fallback={ADMIN_MESSAGES.loadSeasonsFailed} onRetry={seasons.refetch} />
      <ErrorBanner error={failure?.error ?? null} fallback={failure?.fallback ?? ''} />
      {offer && <NotifyOffer poll={offer.poll} reason={offer.reason} onNotify={() => setNotifying(offer.poll)} onDismiss={() => setOffer(null)} />}
      <p role="status" className={notified ? 'text-sm font-semibold text-emerald-700 dark:text-emerald-300' : 'sr-only'}>
        {notified}
      </p>

      <ListState query={polls} loadingLabel="Cargando encuestas…" fallback={ADMIN_MESSAGES.loadPollsFailed} empty={ADMIN_MESSAGES.noPolls}>
        {(list) => (
          <AdminTable
            label="Encuestas"
            rows={list}
            rowKey={(poll) => poll.id}
            columns={columns}
            card={(poll) => (
              <>
                <p className="font-bold break-words">{poll.title}</p>
                <p className="text-sm text-slate-600 dark:text-slate-400">{seasonName(poll)}</p>
                <div className="mt-2 flex flex-wrap items-center gap-2">
                  {badges(poll)}
                  <span className="text-sm text-slate-600 tabular-nums dark:text-slate-400">{plural(poll.voteCount, 'voto', 'votos')}</span>
                </div>
                <div className="mt-3 border-t border-slate-100 pt-2 dark:border-white/5">{actions(poll)}</div>
              </>
            )}
          />
        )}
      </ListState>

      {editing && <PollFormModal poll={editing.poll} seasons={seasonList} defaultSeasonId={seasonId} onSaved={onSaved} onClose={closeForm} />}
      {notifying && (
        <NotifyFansDialog
          poll={notifying}
          onDone={() => {
            setNotifying(null);
            setOffer(null);
            setNotified(`${PUSH_ADMIN_TEXTS.queued}: ${notifying.title}`);
          }}
          onCancel={() => setNotifying(null)}
        />
      )}
      {deleting && (
        <ConfirmDialog
          title="Eliminar encuesta"
          message={ADMIN_MESSAGES.confirmDeletePoll}
          confirmLabel="Eliminar"
          action={() => callApi('deletePoll', { params: { pollId: deleting.id } })}
          errorFallback={ADMIN_MESSAGES.deletePollFailed}
          onDone={() => {
            setData((list) => list.filter((p) => p.id !== deleting.id));
            setDeleting(null);
          }}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
