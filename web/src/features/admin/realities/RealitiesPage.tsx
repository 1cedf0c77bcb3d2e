import { useEffect, useState } from 'react';
import { ADMIN_LIMITS, ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { RealityView } from '@tribuna/contracts/api/admin/catalog';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { ConfirmDialog } from '../../../components/admin/ConfirmDialog';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { FormDialog } from '../../../components/admin/FormDialog';
import { ListState } from '../../../components/admin/ListState';
import { PageHeader } from '../../../components/admin/PageHeader';
import { StatusBadge, ToggleBadge } from '../../../components/admin/StatusBadge';
import { panel, primaryButton, rowButton, rowDangerButton } from '../../../components/admin/buttons';
import { Checkbox, TextField } from '../../../components/admin/fields';
import { useCreateParam } from '../../../components/admin/useCreateParam';
import { usePendingIds } from '../../../components/admin/usePendingIds';
import { PlusIcon } from '../icons';

/** Deleting has no fallback in the spec's catalogue; this one says what failed. */
export const DELETE_REALITY_FAILED = 'Error al eliminar el reality';

type Editing = { mode: 'create' } | { mode: 'edit'; reality: RealityView };
/** A failure shown in the page banner, with the §8 fallback that fits it. */
type Failure = { error: unknown; fallback: string };

const byName = (a: RealityView, b: RealityView) => a.name.localeCompare(b.name, 'es');

/** /admin/realitys: list, add/edit modal (name, Activo), active toggle, soft delete (spec §2, §4), 'Mostrar eliminados' with Restaurar. */
export function RealitiesPage() {
  const [showDeleted, setShowDeleted] = useState(false);
  const realities = useQuery(['admin-realities', showDeleted], (signal) =>
    callApi('adminRealities', { signal, query: { includeDeleted: showDeleted ? 'true' : undefined } }).then((r) => r.realities),
  );
  const { setData } = realities;
  const [createRequested, clearCreate] = useCreateParam();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<RealityView | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const { pending, track } = usePendingIds();

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- ?nuevo=1 in the address (the dashboard's quick action) opens the create modal
    if (createRequested) setEditing({ mode: 'create' });
  }, [createRequested]);

  function closeEditor() {
    setEditing(null);
    if (createRequested) clearCreate();
  }

  function saved(reality: RealityView) {
    setData((list) => {
      const rest = list.filter((r) => r.id !== reality.id);
      return [...rest, reality].sort(byName);
    });
    closeEditor();
  }

  /** Optimistic: the badge flips at once and flips back if the server refuses. */
  async function toggle(reality: RealityView) {
    if (pending.has(reality.id)) return;
    const active = !reality.active;
    setFailure(null);
    await track(reality.id, async () => {
      setData((list) => list.map((r) => (r.id === reality.id ? { ...r, active } : r)));
      try {
        const updated = await callApi('updateReality', { params: { realityId: reality.id }, body: { active } });
        setData((list) => list.map((r) => (r.id === updated.id ? updated : r)));
      } catch (error) {
        setData((list) => list.map((r) => (r.id === reality.id ? { ...r, active: reality.active } : r)));
        setFailure({ error, fallback: ADMIN_MESSAGES.toggleFailed });
      }
    });
  }

  /** Restored inactive, as the delete left it; its seasons come back with it. */
  async function restore(reality: RealityView) {
    if (pending.has(reality.id)) return;
    setFailure(null);
    await track(reality.id, async () => {
      try {
        const restored = await callApi('restoreReality', { params: { realityId: reality.id } });
        setData((list) => list.map((r) => (r.id === restored.id ? restored : r)));
      } catch (error) {
        setFailure({ error, fallback: ADMIN_MESSAGES.restoreRealityFailed });
      }
    });
  }

  /** A deleted reality leaves the list, or stays in it marked deleted while the deleted ones are shown. */
  function removed(reality: RealityView) {
    const deletedAt = new Date().toISOString();
    setData((list) =>
      showDeleted ? list.map((r) => (r.id === reality.id ? { ...r, active: false, deletedAt } : r)) : list.filter((r) => r.id !== reality.id),
    );
  }

  return (
    <div className="space-y-5">
      <PageHeader title="Realities" description="Los programas del sitio. Cada temporada pertenece a un reality.">
        <button type="button" className={primaryButton} onClick={() => setEditing({ mode: 'create' })}>
          <PlusIcon className="size-4" />
          Nuevo reality
        </button>
      </PageHeader>

      {failure && <ErrorBanner error={failure.error} fallback={failure.fallback} />}

      <Checkbox label="Mostrar eliminados" checked={showDeleted} onChange={setShowDeleted} />

      <ListState
        query={realities}
        loadingLabel="Cargando realities…"
        fallback={ADMIN_MESSAGES.loadRealitiesFailed}
        empty={ADMIN_MESSAGES.noRealities}
        emptyAction={
          <button type="button" className={primaryButton} onClick={() => setEditing({ mode: 'create' })}>
            <PlusIcon className="size-4" />
            Nuevo reality
          </button>
        }
      >
        {(list) => (
          <ul className="space-y-3" aria-label="Realities">
            {list.map((reality) => (
              <li key={reality.id} className={`${panel} flex flex-col gap-3 p-4 sm:flex-row sm:items-center`}>
                <div className="min-w-0 flex-1">
                  <p className="truncate font-bold">{reality.name}</p>
                  <p className="text-sm text-slate-500 dark:text-slate-400">
                    {reality.seasonCount} {reality.seasonCount === 1 ? 'temporada' : 'temporadas'}
                  </p>
                </div>
                {reality.deletedAt !== null ? (
                  <div className="flex flex-wrap items-center gap-2">
                    <StatusBadge tone="rose">Eliminado</StatusBadge>
                    <button
                      type="button"
                      className={rowButton}
                      aria-label={`Restaurar ${reality.name}`}
                      onClick={() => void restore(reality)}
                      disabled={pending.has(reality.id)}
                    >
                      {pending.has(reality.id) ? 'Restaurando…' : 'Restaurar'}
                    </button>
                  </div>
                ) : (
                  <div className="flex flex-wrap items-center gap-2">
                    <ToggleBadge
                      active={reality.active}
                      activeLabel="Activo"
                      inactiveLabel="Inactivo"
                      label={`Cambiar estado de ${reality.name}`}
                      onToggle={() => void toggle(reality)}
                      disabled={pending.has(reality.id)}
                    />
                    <button type="button" className={rowButton} aria-label={`Editar ${reality.name}`} onClick={() => setEditing({ mode: 'edit', reality })}>
                      Editar
                    </button>
                    <button type="button" className={rowDangerButton} aria-label={`Eliminar ${reality.name}`} onClick={() => setDeleting(reality)}>
                      Eliminar
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </ListState>

      {editing && <RealityDialog editing={editing} onSaved={saved} onClose={closeEditor} />}
      {deleting && (
        <DeleteRealityDialog
          reality={deleting}
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

/** Client-side check of the reality form (the server checks again): name required, at most 100 characters. */
export function validateRealityName(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return ADMIN_MESSAGES.realityNameRequired;
  if (trimmed.length > ADMIN_LIMITS.realityName) return `El nombre admite como máximo ${ADMIN_LIMITS.realityName} caracteres`;
  return null;
}

function RealityDialog({ editing, onSaved, onClose }: { editing: Editing; onSaved: (reality: RealityView) => void; onClose: () => void }) {
  const existing = editing.mode === 'edit' ? editing.reality : null;
  const [name, setName] = useState(existing?.name ?? '');
  const [active, setActive] = useState(existing?.active ?? true);
  const [nameError, setNameError] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    const invalid = validateRealityName(name);
    setNameError(invalid);
    if (invalid) return;
    setBusy(true);
    setError(null);
    try {
      const body = { name: name.trim(), active };
      const reality = existing ? await callApi('updateReality', { params: { realityId: existing.id }, body }) : await callApi('createReality', { body });
      onSaved(reality);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  }

  return (
    <FormDialog
      title={existing ? 'Editar reality' : 'Nuevo reality'}
      submitLabel={existing ? 'Guardar cambios' : 'Crear reality'}
      busy={busy}
      error={error}
      errorFallback={ADMIN_MESSAGES.saveRealityFailed}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextField
        label="Nombre"
        required
        value={name}
        maxLength={ADMIN_LIMITS.realityName}
        autoComplete="off"
        onChange={(event) => {
          setName(event.target.value);
          if (nameError) setNameError(null);
        }}
        error={nameError}
      />
      <Checkbox label="Activo" checked={active} onChange={setActive} />
    </FormDialog>
  );
}

function DeleteRealityDialog({ reality, onDeleted, onCancel }: { reality: RealityView; onDeleted: () => void; onCancel: () => void }) {
  return (
    <ConfirmDialog
      title="Eliminar reality"
      message={
        <p>
          ¿Estás seguro de eliminar <strong className="text-slate-900 dark:text-white">{reality.name}</strong>? Dejará de aparecer en el panel.
        </p>
      }
      action={() => callApi('deleteReality', { params: { realityId: reality.id } })}
      errorFallback={DELETE_REALITY_FAILED}
      onDone={onDeleted}
      onCancel={onCancel}
    />
  );
}
