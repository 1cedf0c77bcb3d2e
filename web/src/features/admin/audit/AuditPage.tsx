import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { AUDIT_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AuditEntryView } from '@tribuna/contracts/api/admin/audit';
import { callApi } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { useQuery } from '../../../lib/useQuery';
import { EmptyState } from '../../../components/admin/EmptyState';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { PageHeader } from '../../../components/admin/PageHeader';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { panel, rowButton, secondaryButton } from '../../../components/admin/buttons';
import { inputClass } from '../../../components/admin/Field';
import { auditChanges, auditJson, formatAuditValue } from './auditDiff';

export const AUDIT_RANGE_INVALID = 'La fecha Desde no puede ser posterior a Hasta';

interface AuditFilterState {
  adminId: string;
  action: string;
  from: string;
  to: string;
}

const NO_FILTERS: AuditFilterState = { adminId: '', action: '', from: '', to: '' };

const queryOf = (filters: AuditFilterState, cursor?: string) => ({
  adminId: filters.adminId || undefined,
  action: filters.action || undefined,
  from: filters.from || undefined,
  to: filters.to || undefined,
  cursor,
});

/**
 * /admin/auditoria: every admin action, newest first, filterable by admin, action and days, each
 * with its before/after (the changed keys, old → new); 'Cargar más' pages on.
 */
export function AuditPage() {
  const [filters, setFilters] = useState<AuditFilterState>(NO_FILTERS);
  const rangeInvalid = Boolean(filters.from && filters.to && filters.from > filters.to);
  const menus = useQuery(['admin-audit-filters'], (signal) => callApi('adminAuditFilters', { signal }));
  const log = useQuery(['admin-audit', filters], (signal) => callApi('adminAudit', { signal, query: queryOf(filters) }), { enabled: !rangeInvalid });
  const [more, setMore] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const moreController = useRef<AbortController | null>(null);

  // New filters drop a 'Cargar más' still on its way: its state as they render, its request after.
  const [moreFor, setMoreFor] = useState(filters);
  if (moreFor !== filters) {
    setMoreFor(filters);
    setMore({ busy: false, error: null });
  }
  useEffect(() => {
    moreController.current?.abort();
  }, [filters]);
  useEffect(() => () => moreController.current?.abort(), []);

  const set = (key: keyof AuditFilterState, value: string) => setFilters((current) => ({ ...current, [key]: value }));

  async function loadMore(cursor: string) {
    moreController.current?.abort();
    const controller = new AbortController();
    moreController.current = controller;
    setMore({ busy: true, error: null });
    try {
      const next = await callApi('adminAudit', { signal: controller.signal, query: queryOf(filters, cursor) });
      if (controller.signal.aborted) return;
      log.setData((page) => ({ items: [...page.items, ...next.items.filter((e) => !page.items.some((p) => p.id === e.id))], nextCursor: next.nextCursor }));
      setMore({ busy: false, error: null });
    } catch (error) {
      if (controller.signal.aborted) return;
      setMore({ busy: false, error });
    }
  }

  const admins = menus.status === 'ready' ? menus.data.admins : [];
  const actions = menus.status === 'ready' ? menus.data.actions : [];
  const filtered = filters !== NO_FILTERS && Object.values(filters).some(Boolean);

  return (
    <div className="space-y-5">
      <PageHeader title="Auditoría" description="Cada acción de los administradores, con lo que había antes y lo que quedó después." />

      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Filter label="Administrador">
          {(id) => (
            <select id={id} value={filters.adminId} onChange={(e) => set('adminId', e.target.value)} className={inputClass}>
              <option value="">Todos</option>
              {admins.map((admin) => (
                <option key={admin.id} value={admin.id}>
                  {admin.displayName ?? 'Sin nombre'}
                </option>
              ))}
            </select>
          )}
        </Filter>
        <Filter label="Acción">
          {(id) => (
            <select id={id} value={filters.action} onChange={(e) => set('action', e.target.value)} className={inputClass}>
              <option value="">Todas</option>
              {actions.map((action) => (
                <option key={action} value={action}>
                  {action}
                </option>
              ))}
            </select>
          )}
        </Filter>
        <Filter label="Desde">
          {(id) => (
            <input
              id={id}
              type="date"
              value={filters.from}
              max={filters.to || undefined}
              onChange={(e) => set('from', e.target.value)}
              className={inputClass}
            />
          )}
        </Filter>
        <Filter label="Hasta">
          {(id) => (
            <input
              id={id}
              type="date"
              value={filters.to}
              min={filters.from || undefined}
              aria-invalid={rangeInvalid || undefined}
              aria-describedby={rangeInvalid ? `${id}-error` : undefined}
              onChange={(e) => set('to', e.target.value)}
              className={inputClass}
            />
          )}
        </Filter>
      </div>
      {filtered && (
        <button type="button" className={secondaryButton} onClick={() => setFilters(NO_FILTERS)}>
          Quitar filtros
        </button>
      )}
      <ErrorBanner error={menus.status === 'error' ? menus.error : null} fallback={AUDIT_MESSAGES.loadFailed} onRetry={menus.refetch} />

      {rangeInvalid ? (
        <p role="alert" className="text-sm font-medium text-rose-700 dark:text-rose-300">
          {AUDIT_RANGE_INVALID}
        </p>
      ) : log.status === 'error' ? (
        <ErrorBanner error={log.error} fallback={AUDIT_MESSAGES.loadFailed} onRetry={log.refetch} />
      ) : log.status !== 'ready' ? (
        <ListSkeleton label="Cargando auditoría…" />
      ) : log.data.items.length === 0 ? (
        <EmptyState message={AUDIT_MESSAGES.empty} />
      ) : (
        <div className="space-y-4">
          <ol aria-label="Acciones registradas" className="space-y-3">
            {log.data.items.map((entry) => (
              <AuditItem key={entry.id} entry={entry} />
            ))}
          </ol>
          <ErrorBanner error={more.error} fallback={AUDIT_MESSAGES.loadFailed} onRetry={() => log.data.nextCursor && void loadMore(log.data.nextCursor)} />
          {log.data.nextCursor && !more.error && (
            <div className="flex justify-center">
              <button type="button" className={secondaryButton} disabled={more.busy} aria-busy={more.busy} onClick={() => void loadMore(log.data.nextCursor!)}>
                {more.busy ? 'Cargando…' : 'Cargar más'}
              </button>
            </div>
          )}
        </div>
      )}
    </div>
  );
}

function Filter({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      {children(id)}
    </div>
  );
}

function AuditItem({ entry }: { entry: AuditEntryView }) {
  const [open, setOpen] = useState(false);
  const detailsId = useId();
  const adminName = entry.admin ? (entry.admin.displayName ?? 'Sin nombre') : 'Administrador eliminado';
  return (
    <li className={`${panel} p-4`}>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className="rounded-md bg-slate-100 px-2 py-0.5 font-mono text-xs font-semibold text-slate-800 dark:bg-white/10 dark:text-slate-100">
              {entry.action}
            </span>
            <span className="text-sm font-semibold">{adminName}</span>
          </p>
          <p className="text-sm break-all text-slate-600 dark:text-slate-400">
            {entry.entityType}
            {entry.entityId && <span className="font-mono text-xs"> · {entry.entityId}</span>}
          </p>
        </div>
        <time dateTime={entry.createdAt} className="shrink-0 text-sm text-slate-500 tabular-nums dark:text-slate-400">
          {formatDateTime(entry.createdAt)}
        </time>
      </div>
      <button type="button" className={`${rowButton} mt-2 -ml-3`} aria-expanded={open} aria-controls={detailsId} onClick={() => setOpen((v) => !v)}>
        {open ? 'Ocultar cambios' : 'Ver cambios'}
      </button>
      <div id={detailsId} hidden={!open} className="mt-2">
        {open && <AuditDiff before={entry.before} after={entry.after} />}
      </div>
    </li>
  );
}

const preClass =
  'max-h-64 overflow-auto rounded-xl bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap break-all text-slate-800 ring-1 ring-slate-200 dark:bg-white/5 dark:text-slate-200 dark:ring-white/10';

function AuditDiff({ before, after }: { before: unknown; after: unknown }) {
  const changes = auditChanges(before, after);
  if (changes === null) {
    return (
      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <p className="mb-1 text-xs font-bold text-slate-500 uppercase dark:text-slate-400">Antes</p>
          <pre className={preClass}>{auditJson(before)}</pre>
        </div>
        <div>
          <p className="mb-1 text-xs font-bold text-slate-500 uppercase dark:text-slate-400">Después</p>
          <pre className={preClass}>{auditJson(after)}</pre>
        </div>
      </div>
    );
  }
  if (changes.length === 0) return <p className="text-sm text-slate-600 dark:text-slate-300">Sin cambios registrados.</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Cambios</caption>
        <thead className="border-b border-slate-200 text-xs text-slate-500 dark:border-white/10 dark:text-slate-400">
          <tr>
            <th scope="col" className="py-1.5 pr-3 font-semibold">
              Campo
            </th>
            <th scope="col" className="py-1.5 pr-3 font-semibold">
              Antes
            </th>
            <th scope="col" className="py-1.5 font-semibold">
              Después
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 align-top dark:divide-white/5">
          {changes.map((change) => (
            <tr key={change.key}>
              <th scope="row" className="py-1.5 pr-3 font-mono text-xs font-semibold">
                {change.key}
              </th>
              <td className="py-1.5 pr-3 font-mono text-xs break-all text-rose-700 dark:text-rose-300">
                <del className="no-underline">{formatAuditValue(change.before)}</del>
              </td>
              <td className="py-1.5 font-mono text-xs break-all text-emerald-700 dark:text-emerald-300">
                <span aria-hidden="true">→ </span>
                <ins className="no-underline">{formatAuditValue(change.after)}</ins>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
