import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { RealityView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { EmptyState } from '../../../components/admin/EmptyState';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { FormDialog } from '../../../components/admin/FormDialog';
import { PageHeader } from '../../../components/admin/PageHeader';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge, ToggleBadge, type BadgeTone } from '../../../components/admin/StatusBadge';
import { AdminTable, type AdminColumn } from '../../../components/admin/AdminTable';
import { primaryButton, rowButton, rowDangerButton } from '../../../components/admin/buttons';
import { Checkbox, SelectField, TextField } from '../../../components/admin/fields';
import { CREATE_PARAM, useCreateParam } from '../../../components/admin/useCreateParam';
import { usePendingIds } from '../../../components/admin/usePendingIds';
import { PlusIcon } from '../icons';
import { SEASON_PHASE_LABELS, calendarToday, formatDateRange, remainingHint, seasonPhase, type SeasonPhase } from './seasonDates';
import { compareSeasons, nextSeasonNumber, seasonInput, validateSeasonForm, type SeasonForm, type SeasonFormErrors } from './seasonForm';

/** Deleting has no fallback in the spec's catalogue; this one says what failed. */
export const DELETE_SEASON_FAILED = 'Error al eliminar la temporada';
/** Why a season of a deleted reality offers no Restaurar (the server refuses it: restore the reality first). */
export const RESTORE_REALITY_FIRST = 'Restaura primero el reality';

type Editing = { mode: 'create' } | { mode: 'edit'; season: SeasonView };
type Failure = { error: unknown; fallback: string };

const PHASE_TONES: Record<SeasonPhase, BadgeTone> = { upcoming: 'sky', current: 'green', finished: 'slate' };

const seasonName = (season: SeasonView) => `${season.realityName} · Temporada ${season.number}`;
/** Deleted, or hidden with its deleted reality: listed only with 'Mostrar eliminados', without the live actions. */
const isHidden = (season: SeasonView) => season.deletedAt !== null || season.realityDeleted;

/**
 * /admin/temporadas: filter by reality, table (desktop) / cards (phone), create/edit modal, active
 * toggle, soft delete, and 'Mostrar eliminados' with Restaurar.
 */
export function SeasonsPage() {
  const [showDeleted, setShowDeleted] = useState(false);
  const realities = useQuery(['admin-realities'], (signal) => callApi('adminRealities', { signal }).then((r) => r.realities));
  const seasons = useQuery(['admin-seasons', showDeleted], (signal) =>
    callApi('adminSeasons', { signal, query: { includeDeleted: showDeleted ? 'true' : undefined } }).then((r) => [...r.seasons].sort(compareSeasons)),
  );
  const { setData: setSeasons } = seasons;
  const [createRequested, clearCreate] = useCreateParam();
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<SeasonView | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { pending, track } = usePendingIds();
  const filterId = useId();

  const realityList = realities.status === 'ready' ? realities.data : null;
  const noRealities = realityList !== null && realityList.length === 0;

  // ?nuevo=1 (the dashboard's quick action) opens the create modal once there is a reality to pick.
  useEffect(() => {
    if (!createRequested || realityList === null || seasons.status !== 'ready') return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- opened from the address once the lists are there; clearing it navigates
    if (realityList.length > 0) setEditing({ mode: 'create' });
    else clearCreate();
  }, [createRequested, realityList, seasons.status, clearCreate]);

  function closeEditor() {
    setEditing(null);
    if (createRequested) clearCreate();
  }

  /** Mirrors the server: an active season leaves the other seasons of its reality inactive. */
  function applySeason(list: SeasonView[], season: SeasonView): SeasonView[] {
    const others = list
      .filter((s) => s.id !== season.id)
      .map((s) => (season.active && s.realityId === season.realityId && s.active ? { ...s, active: false } : s));
    return [...others, season].sort(compareSeasons);
  }

  function saved(season: SeasonView) {
    setSeasons((list) => applySeason(list, season));
    closeEditor();
  }

  async function toggle(season: SeasonView) {
    if (pending.has(season.id) || seasons.status !== 'ready') return;
    const snapshot = seasons.data;
    const active = !season.active;
    setFailure(null);
    await track(season.id, async () => {
      setSeasons((list) => applySeason(list, { ...season, active }));
      try {
        const updated = await callApi('updateSeason', { params: { seasonId: season.id }, body: { active } });
        setSeasons((list) => applySeason(list, updated));
      } catch (error) {
        // Back to how the list was, the other seasons of the reality included.
        setSeasons((list) => list.map((s) => snapshot.find((old) => old.id === s.id) ?? s));
        setFailure({ error, fallback: ADMIN_MESSAGES.toggleFailed });
      }
    });
  }

  /** Restored inactive (the server's rule): the reality's active season, if any, stays the only one. */
  async function restore(season: SeasonView) {
    if (pending.has(season.id)) return;
    setFailure(null);
    await track(season.id, async () => {
      try {
        const restored = await callApi('restoreSeason', { params: { seasonId: season.id } });
        setSeasons((list) => applySeason(list, restored));
      } catch (error) {
        setFailure({ error, fallback: ADMIN_MESSAGES.restoreSeasonFailed });
      }
    });
  }

  /** A deleted season leaves the list, or stays in it marked deleted while the deleted ones are shown. */
  function removed(season: SeasonView) {
    const deletedAt = new Date().toISOString();
    setSeasons((list) =>
      showDeleted ? list.map((s) => (s.id === season.id ? { ...s, active: false, deletedAt } : s)) : list.filter((s) => s.id !== season.id),
    );
  }

  const loading = seasons.status === 'loading' || seasons.status === 'idle' || realities.status === 'loading' || realities.status === 'idle';
  const visible = seasons.status === 'ready' ? seasons.data.filter((s) => !filter || s.realityId === filter) : [];
  const today = calendarToday();
  const state = (season: SeasonView) => <SeasonState season={season} busy={pending.has(season.id)} onToggle={() => void toggle(season)} />;
  const actions = (season: SeasonView) => (
    <SeasonActions
      season={season}
      busy={pending.has(season.id)}
      onEdit={() => setEditing({ mode: 'edit', season })}
      onDelete={() => setDeleting(season)}
      onRestore={() => void restore(season)}
    />
  );
  const columns: AdminColumn<SeasonView>[] = [
    { header: 'Reality', cellClassName: 'font-semibold', cell: (season) => season.realityName },
    { header: 'Temporada', cellClassName: 'tabular-nums', cell: (season) => `Temporada ${season.number}` },
    { header: 'Año', cellClassName: 'tabular-nums', cell: (season) => season.year },
    { header: 'Fechas', cell: (season) => <SeasonDates season={season} today={today} /> },
    { header: 'Estado', cell: state },
    { header: 'Acciones', className: 'text-right', cellClassName: 'whitespace-nowrap', cell: actions },
  ];

  return (
    <div className="space-y-5">
      <PageHeader title="Temporadas" description="Las temporadas de cada reality. Solo una puede estar activa por reality.">
        <button type="button" className={primaryButton} disabled={!realityList || noRealities} onClick={() => setEditing({ mode: 'create' })}>
          <PlusIcon className="size-4" />
          Nueva temporada
        </button>
      </PageHeader>

      {failure && <ErrorBanner error={failure.error} fallback={failure.fallback} />}
      {realities.status === 'error' && <ErrorBanner error={realities.error} fallback={ADMIN_MESSAGES.loadRealitiesFailed} onRetry={realities.refetch} />}
      {seasons.status === 'error' && <ErrorBanner error={seasons.error} fallback={ADMIN_MESSAGES.loadSeasonsFailed} onRetry={seasons.refetch} />}

      {noRealities && (
        <EmptyState message={ADMIN_MESSAGES.noRealitiesAvailable}>
          <p className="text-sm text-slate-500 dark:text-slate-400">Primero debes crear un reality.</p>
          <Link to={`/admin/realitys?${CREATE_PARAM}=1`} className={primaryButton}>
            <PlusIcon className="size-4" />
            Crear un reality
          </Link>
        </EmptyState>
      )}

      {realityList && realityList.length > 0 && (
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-6">
          <div className="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
            <label htmlFor={filterId} className="text-sm font-semibold text-slate-700 dark:text-slate-200">
              Filtrar por reality
            </label>
            <select
              id={filterId}
              value={filter}
              onChange={(event) => setFilter(event.target.value)}
              className="rounded-xl border border-slate-300 bg-white px-3 py-2 text-base shadow-sm sm:text-sm dark:border-white/15 dark:bg-ink-800"
            >
              <option value="">Todos los realities</option>
              {realityList.map((reality) => (
                <option key={reality.id} value={reality.id}>
                  {reality.name}
                </option>
              ))}
            </select>
          </div>
          <Checkbox label="Mostrar eliminados" checked={showDeleted} onChange={setShowDeleted} />
        </div>
      )}

      {loading && <ListSkeleton label="Cargando temporadas…" />}

      {!loading && seasons.status === 'ready' && !noRealities && visible.length === 0 && <EmptyState message={ADMIN_MESSAGES.noSeasons} />}

      {!loading && visible.length > 0 && (
        <AdminTable
          label="Temporadas"
          rows={visible}
          rowKey={(season) => season.id}
          columns={columns}
          cardClassName="space-y-3"
          card={(season) => (
            <>
              <div className="flex items-start justify-between gap-3">
                <div className="min-w-0">
                  <p className="truncate font-bold">{season.realityName}</p>
                  <p className="text-sm text-slate-600 tabular-nums dark:text-slate-400">
                    Temporada {season.number} · {season.year}
                  </p>
                </div>
                {state(season)}
              </div>
              <SeasonDates season={season} today={today} />
              <div className="-mx-1 flex items-center justify-end gap-1 border-t border-slate-200 pt-2 dark:border-white/10">{actions(season)}</div>
            </>
          )}
        />
      )}

      {editing && realityList && seasons.status === 'ready' && (
        <SeasonDialog editing={editing} realities={realityList} seasons={seasons.data} defaultRealityId={filter} onSaved={saved} onClose={closeEditor} />
      )}
      {deleting && (
        <DeleteSeasonDialog
          season={deleting}
          onDeleted={() => {
            removed(deleting);
            setDeleting(null);
          }}
          onCancel={() => setDeleting(null)}
        />
      )}
    </div>
  );
}

function SeasonDates({ season, today }: { season: SeasonView; today: string }) {
  const phase = seasonPhase(season.startDate, season.endDate, today);
  const hint = remainingHint(season.startDate, season.endDate, today);
  return (
    <div className="space-y-1">
      <p className="text-sm">{formatDateRange(season.startDate, season.endDate)}</p>
      {phase && (
        <p className="flex flex-wrap items-center gap-2">
          <StatusBadge tone={PHASE_TONES[phase]}>{SEASON_PHASE_LABELS[phase]}</StatusBadge>
          {hint && <span className="text-xs text-slate-500 dark:text-slate-400">{hint}</span>}
        </p>
      )}
    </div>
  );
}

/** The active toggle of a live season; what hides a deleted one (its own delete, its reality's) otherwise. */
function SeasonState({ season, busy, onToggle }: { season: SeasonView; busy: boolean; onToggle: () => void }) {
  if (!isHidden(season)) {
    return (
      <ToggleBadge
        active={season.active}
        activeLabel="Activa"
        inactiveLabel="Inactiva"
        label={`Cambiar estado de ${seasonName(season)}`}
        onToggle={onToggle}
        disabled={busy}
      />
    );
  }
  return (
    <span className="inline-flex flex-wrap justify-end gap-1.5 md:justify-start">
      {season.deletedAt !== null && <StatusBadge tone="rose">Eliminada</StatusBadge>}
      {season.realityDeleted && <StatusBadge tone="slate">Reality eliminado</StatusBadge>}
    </span>
  );
}

interface SeasonActionsProps {
  season: SeasonView;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onRestore: () => void;
}

function SeasonActions({ season, busy, onEdit, onDelete, onRestore }: SeasonActionsProps) {
  if (season.realityDeleted) return <span className="px-3 text-sm text-slate-600 dark:text-slate-400">{RESTORE_REALITY_FIRST}</span>;
  if (season.deletedAt !== null) {
    return (
      <button type="button" className={rowButton} aria-label={`Restaurar ${seasonName(season)}`} onClick={onRestore} disabled={busy}>
        {busy ? 'Restaurando…' : 'Restaurar'}
      </button>
    );
  }
  return (
    <>
      <button type="button" className={rowButton} aria-label={`Editar ${seasonName(season)}`} onClick={onEdit}>
        Editar
      </button>
      <button type="button" className={rowDangerButton} aria-label={`Eliminar ${seasonName(season)}`} onClick={onDelete}>
        Eliminar
      </button>
    </>
  );
}

interface SeasonDialogProps {
  editing: Editing;
  realities: RealityView[];
  seasons: SeasonView[];
  /** The reality of the list's filter, preselected for a new season. */
  defaultRealityId: string;
  onSaved: (season: SeasonView) => void;
  onClose: () => void;
}

function initialForm(editing: Editing, realities: RealityView[], seasons: SeasonView[], defaultRealityId: string): SeasonForm {
  if (editing.mode === 'edit') {
    const s = editing.season;
    return { realityId: s.realityId, number: String(s.number), year: String(s.year), startDate: s.startDate ?? '', endDate: s.endDate ?? '', active: s.active };
  }
  const realityId = defaultRealityId || (realities.length === 1 ? realities[0]!.id : '');
  return {
    realityId,
    number: realityId ? String(nextSeasonNumber(seasons, realityId)) : '',
    year: String(new Date().getFullYear()),
    startDate: '',
    endDate: '',
    active: true,
  };
}

function SeasonDialog({ editing, realities, seasons, defaultRealityId, onSaved, onClose }: SeasonDialogProps) {
  const existing = editing.mode === 'edit' ? editing.season : null;
  const [form, setForm] = useState<SeasonForm>(() => initialForm(editing, realities, seasons, defaultRealityId));
  const [numberTouched, setNumberTouched] = useState(existing !== null);
  const [errors, setErrors] = useState<SeasonFormErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  function update(patch: Partial<SeasonForm>) {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[(key === 'startDate' ? 'endDate' : key) as keyof SeasonFormErrors];
      return next;
    });
  }

  function chooseReality(realityId: string) {
    // The number follows the chosen reality until the admin types one.
    update(numberTouched || !realityId ? { realityId } : { realityId, number: String(nextSeasonNumber(seasons, realityId)) });
  }

  async function submit() {
    const found = validateSeasonForm(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setError(null);
    try {
      const body = seasonInput(form);
      const season = existing ? await callApi('updateSeason', { params: { seasonId: existing.id }, body }) : await callApi('createSeason', { body });
      onSaved(season);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  // The realities listed, plus an edited season's own reality if it was deleted since.
  const options: Array<Pick<RealityView, 'id' | 'name' | 'active'>> =
    existing && !realities.some((r) => r.id === existing.realityId)
      ? [...realities, { id: existing.realityId, name: existing.realityName, active: false }]
      : realities;

  return (
    <FormDialog
      title={existing ? 'Editar temporada' : 'Nueva temporada'}
      submitLabel={existing ? 'Guardar cambios' : 'Crear temporada'}
      busy={busy}
      error={error}
      errorFallback={ADMIN_MESSAGES.saveSeasonFailed}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <SelectField label="Reality" required value={form.realityId} onChange={(event) => chooseReality(event.target.value)} error={errors.realityId}>
        <option value="">Selecciona un reality</option>
        {options.map((reality) => (
          <option key={reality.id} value={reality.id}>
            {reality.name}
            {reality.active ? '' : ' (inactivo)'}
          </option>
        ))}
      </SelectField>
      <div className="grid grid-cols-2 gap-3">
        <TextField
          label="Número"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          value={form.number}
          onChange={(event) => {
            setNumberTouched(true);
            update({ number: event.target.value });
          }}
          error={errors.number}
          hint={!existing ? 'El siguiente de este reality' : undefined}
        />
        <TextField
          label="Año"
          type="number"
          inputMode="numeric"
          required
          min={ADMIN_LIMITS.seasonYearMin}
          max={ADMIN_LIMITS.seasonYearMax}
          step={1}
          value={form.year}
          onChange={(event) => update({ year: event.target.value })}
          error={errors.year}
        />
      </div>
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField label="Fecha de inicio" type="date" value={form.startDate} onChange={(event) => update({ startDate: event.target.value })} />
        <TextField
          label="Fecha de fin"
          type="date"
          value={form.endDate}
          min={form.startDate || undefined}
          onChange={(event) => update({ endDate: event.target.value })}
          error={errors.endDate}
        />
      </div>
      <Checkbox
        label="Activa"
        checked={form.active}
        onChange={(active) => update({ active })}
        note={
          form.active ? (
            <p className="rounded-xl bg-amber-50 px-3 py-2 font-medium text-amber-900 ring-1 ring-amber-200 dark:bg-amber-400/10 dark:text-amber-200 dark:ring-amber-400/30">
              {ADMIN_MESSAGES.activateSeasonWarning}
            </p>
          ) : undefined
        }
      />
    </FormDialog>
  );
}

function DeleteSeasonDialog({ season, onDeleted, onCancel }: { season: SeasonView; onDeleted: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title="Eliminar temporada"
      message={
        <p>
          ¿Estás seguro de eliminar <strong className="text-slate-900 dark:text-white">{seasonName(season)}</strong>? Dejará de aparecer en el panel.
        </p>
      }
      action={() => callApi('deleteSeason', { params: { seasonId: season.id } })}
      errorFallback={DELETE_SEASON_FAILED}
      onDone={onDeleted}
      onCancel={onCancel}
    />
  );
}
