import { useState } from 'react';
import type { ContestantView } from '@tribuna/contracts/api/admin/catalog';
import { ADMIN_MESSAGES, CONTESTANT_STATUS_LABELS, type ContestantStatus } from '@tribuna/contracts/adminRules';
import { Avatar } from '../../../components/Avatar';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { ListState } from '../../../components/admin/ListState';
import { PageHeader } from '../../../components/admin/PageHeader';
import { StatusBadge, type BadgeTone } from '../../../components/admin/StatusBadge';
import { AdminTable, type AdminColumn } from '../../../components/admin/AdminTable';
import { primaryButton, rowButton, rowDangerButton } from '../../../components/admin/buttons';
import { Checkbox } from '../../../components/admin/fields';
import { useCreateParam } from '../../../components/admin/useCreateParam';
import { PlusIcon } from '../icons';
import { SeasonFilter, seasonLabel, useAdminSeasons } from '../../../components/admin/SeasonFilter';
import { ContestantFormModal } from './ContestantFormModal';

const STATUS_TONES: Record<ContestantStatus, BadgeTone> = { active: 'green', eliminated: 'rose', finalist: 'sky', winner: 'amber' };

export function ContestantStatusBadge({ status }: { status: ContestantStatus }) {
  return <StatusBadge tone={STATUS_TONES[status]}>{CONTESTANT_STATUS_LABELS[status]}</StatusBadge>;
}

type Editing = { contestant: ContestantView | null } | null;

/** Why a contestant of a deleted season offers no Restaurar (the server refuses it: restore the season first). */
export const RESTORE_SEASON_FIRST = 'Restaura primero la temporada';

/** What hides a deleted contestant ('Borrado': 'Eliminado' is already a status of the show), and its season's delete. */
function DeletedBadges({ contestant }: { contestant: ContestantView }) {
  return (
    <>
      {contestant.deletedAt !== null && <StatusBadge tone="slate">Borrado</StatusBadge>}
      {contestant.seasonDeleted && <StatusBadge tone="slate">Temporada eliminada</StatusBadge>}
    </>
  );
}

/** /admin/concursantes: contestants by season, their create/edit modal, delete, and 'Mostrar eliminados' with Restaurar (spec §2 Contestants). */
export function ContestantsPage() {
  const [createRequested, clearCreate] = useCreateParam();
  const [seasonId, setSeasonId] = useState('');
  const [showDeleted, setShowDeleted] = useState(false);
  const [editingState, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<ContestantView | null>(null);
  const [restoring, setRestoring] = useState<ReadonlySet<string>>(new Set());
  const [failure, setFailure] = useState<unknown>(null);
  const seasons = useAdminSeasons();
  const contestants = useQuery(['admin-contestants', seasonId, showDeleted], (signal) =>
    callApi('adminContestants', { signal, query: { seasonId: seasonId || undefined, includeDeleted: showDeleted ? 'true' : undefined } }).then(
      (r) => r.contestants,
    ),
  );

  // ?nuevo=1 (the dashboard's quick action) opens the create modal.
  const editing: Editing = editingState ?? (createRequested ? { contestant: null } : null);

  function closeForm() {
    setEditing(null);
    if (createRequested) clearCreate();
  }

  function onSaved(saved: ContestantView, created: boolean) {
    const matches = !seasonId || saved.seasonId === seasonId;
    contestants.setData((list) => {
      if (created) return matches ? [saved, ...list] : list;
      return matches ? list.map((c) => (c.id === saved.id ? saved : c)) : list.filter((c) => c.id !== saved.id);
    });
    closeForm();
  }

  async function restore(contestant: ContestantView) {
    if (restoring.has(contestant.id)) return;
    setFailure(null);
    setRestoring((s) => new Set(s).add(contestant.id));
    try {
      const restored = await callApi('restoreContestant', { params: { contestantId: contestant.id } });
      contestants.setData((list) => list.map((c) => (c.id === restored.id ? restored : c)));
    } catch (error) {
      setFailure(error);
    } finally {
      setRestoring((s) => {
        const next = new Set(s);
        next.delete(contestant.id);
        return next;
      });
    }
  }

  const seasonList = seasons.status === 'ready' ? seasons.data : [];
  const seasonName = (c: ContestantView) => seasonLabel({ realityName: c.realityName, number: c.seasonNumber });
  const actions = (contestant: ContestantView) =>
    contestant.seasonDeleted ? (
      <span className="inline-flex min-h-9 items-center text-sm text-slate-600 dark:text-slate-400">{RESTORE_SEASON_FIRST}</span>
    ) : contestant.deletedAt !== null ? (
      <div className="flex flex-wrap gap-1">
        <button
          type="button"
          onClick={() => void restore(contestant)}
          disabled={restoring.has(contestant.id)}
          aria-label={`Restaurar ${contestant.fullName}`}
          className={rowButton}
        >
          {restoring.has(contestant.id) ? 'Restaurando…' : 'Restaurar'}
        </button>
      </div>
    ) : (
      <div className="flex flex-wrap gap-1">
        <button type="button" onClick={() => setEditing({ contestant })} aria-label={`Editar ${contestant.fullName}`} className={rowButton}>
          Editar
        </button>
        <button type="button" onClick={() => setDeleting(contestant)} aria-label={`Eliminar ${contestant.fullName}`} className={rowDangerButton}>
          Eliminar
        </button>
      </div>
    );

  const columns: AdminColumn<ContestantView>[] = [
    {
      header: 'Concursante',
      cell: (contestant) => (
        <div className="flex items-center gap-3">
          <Avatar name={contestant.fullName} src={contestant.photoUrl} />
          <span className="font-semibold">{contestant.fullName}</span>
        </div>
      ),
    },
    { header: 'Temporada', cellClassName: 'text-slate-600 dark:text-slate-300', cell: seasonName },
    {
      header: 'Estado',
      cell: (contestant) => (
        <div className="flex flex-wrap gap-1.5">
          <ContestantStatusBadge status={contestant.status} />
          <DeletedBadges contestant={contestant} />
        </div>
      ),
    },
    {
      header: 'Posición',
      cellClassName: 'tabular-nums',
      cell: (contestant) =>
        contestant.finalPosition ?? (
          <>
            <span aria-hidden="true" className="text-slate-400">
              —
            </span>
            <span className="sr-only">Sin posición</span>
          </>
        ),
    },
    { header: 'Acciones', cell: actions },
  ];

  return (
    <div className="space-y-5">
      <PageHeader title="Concursantes" description="Los participantes de cada temporada, su estado y su posición final.">
        <button type="button" onClick={() => setEditing({ contestant: null })} className={primaryButton}>
          <PlusIcon className="size-4" />
          Nuevo concursante
        </button>
      </PageHeader>

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-6">
        <SeasonFilter seasons={seasonList} value={seasonId} onChange={setSeasonId} />
        <Checkbox label="Mostrar eliminados" checked={showDeleted} onChange={setShowDeleted} />
      </div>
      <ErrorBanner error={seasons.status === 'error' ? seasons.error : null} fallback={ADMIN_MESSAGES.loadSeasonsFailed} onRetry={seasons.refetch} />
      <ErrorBanner error={failure} fallback={ADMIN_MESSAGES.restoreContestantFailed} />

      <ListState query={contestants} loadingLabel="Cargando concursantes…" fallback={ADMIN_MESSAGES.loadContestantsFailed} empty={ADMIN_MESSAGES.noContestants}>
        {(list) => (
          <AdminTable
            label="Concursantes"
            rows={list}
            rowKey={(contestant) => contestant.id}
            columns={columns}
            card={(contestant) => (
              <>
                <div className="flex items-start gap-3">
                  <Avatar name={contestant.fullName} src={contestant.photoUrl} size="lg" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-bold">{contestant.fullName}</p>
                    <p className="text-sm break-words text-slate-600 dark:text-slate-400">
                      {/* Wraps between the reality and 'Temporada N', never inside 'Temporada N'. */}
                      {contestant.realityName} · <span className="whitespace-nowrap">Temporada {contestant.seasonNumber}</span>
                    </p>
                    <div className="mt-2 flex flex-wrap items-center gap-2 text-sm">
                      <ContestantStatusBadge status={contestant.status} />
                      <DeletedBadges contestant={contestant} />
                      {contestant.finalPosition !== null && <span className="text-slate-600 dark:text-slate-400">Posición {contestant.finalPosition}</span>}
                    </div>
                  </div>
                </div>
                <div className="mt-3 border-t border-slate-100 pt-2 dark:border-white/5">{actions(contestant)}</div>
              </>
            )}
          />
        )}
      </ListState>

      {editing && <ContestantFormModal contestant={editing.contestant} seasons={seasonList} defaultSeasonId={seasonId} onSaved={onSaved} onClose={closeForm} />}
      {deleting && (
        <ConfirmDialog
          title="Eliminar concursante"
          message={ADMIN_MESSAGES.confirmDeleteContestant}
          confirmLabel="Eliminar"
          action={() => callApi('deleteContestant', { params: { contestantId: deleting.id } })}
          errorFallback={ADMIN_MESSAGES.deleteContestantFailed}
          onDone={() => {
            // Stays listed, marked, while the deleted ones are shown.
            const deletedAt = new Date().toISOString();
            contestants.setData((list) =>
              showDeleted ? list.map((c) => (c.id === deleting.id ? { ...c, deletedAt } : c)) : list.filter((c) => c.id !== deleting.id),
            );
            setDeleting(null);
          }}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
