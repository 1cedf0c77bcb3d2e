import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ModerationActionResult, ModerationItem } from '@tribuna/contracts/api/moderation';
import {
  MODERATION_MESSAGES,
  MODERATION_QUEUE_TEXTS,
  REPORT_REASONS,
  REPORT_REASON_LABELS,
  REPORT_STATUSES,
  REPORT_STATUS_LABELS,
  type ModerationAction,
  type ReportReason,
  type ReportStatus,
} from '@tribuna/contracts/moderationRules';
import { Alert } from '../../../components/Alert';
import { EmptyState } from '../../../components/admin/EmptyState';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { inputClass } from '../../../components/admin/Field';
import { PageHeader } from '../../../components/admin/PageHeader';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { secondaryButton } from '../../../components/admin/buttons';
import { callApi } from '../../../lib/api';
import { useSessionStore } from '../../../lib/session/sessionStore';
import { useQuery } from '../../../lib/useQuery';
import { ActionDialog } from './ActionDialog';
import { ModerationItemCard } from './ModerationItemCard';
import { allowedActions, applyResult, isReportReason, itemKey } from './moderationItem';

const isStatus = (value: string | null): value is ReportStatus => (REPORT_STATUSES as readonly (string | null)[]).includes(value);

const queryOf = (status: ReportStatus, reason: ReportReason | null, cursor?: string) => ({
  status: status === 'open' ? undefined : status,
  reason: reason ?? undefined,
  cursor,
});

/**
 * /admin/moderacion (issue 29), for site admins and moderators: the reported items grouped by item,
 * newest report first, filtered by status (Pendientes, Descartados, Con medidas) and reason, in the
 * URL (?status=&reason=); 'Cargar más' pages on. Each item offers the actions the server allows
 * the viewer (Suspender for admins only), each confirmed in a dialog; the item then changes in
 * place from the answer, or leaves the 'Pendientes' list, and the server's message is shown.
 */
export function ModerationPage() {
  const isAdmin = useSessionStore((state) => state.user?.role === 'admin');
  const [params, setParams] = useSearchParams();
  const rawStatus = params.get('status');
  const rawReason = params.get('reason') ?? '';
  const status: ReportStatus = isStatus(rawStatus) ? rawStatus : 'open';
  const reason = isReportReason(rawReason) ? rawReason : null;

  const queue = useQuery(['moderation-queue', status, reason], (signal) => callApi('moderationQueue', { signal, query: queryOf(status, reason) }));
  const [more, setMore] = useState<{ busy: boolean; error: unknown }>({ busy: false, error: null });
  const moreController = useRef<AbortController | null>(null);
  const [dialog, setDialog] = useState<{ item: ModerationItem; action: ModerationAction } | null>(null);
  const [notice, setNotice] = useState<{ message: string; seq: number } | null>(null);
  const noticeRef = useRef<HTMLDivElement>(null);

  // New filters drop a 'Cargar más' still on its way and the last action's message (as they render).
  const filterKey = `${status}|${reason ?? ''}`;
  const [shownFor, setShownFor] = useState(filterKey);
  if (shownFor !== filterKey) {
    setShownFor(filterKey);
    setMore({ busy: false, error: null });
    setNotice(null);
  }
  useEffect(() => {
    moreController.current?.abort();
  }, [filterKey]);
  useEffect(() => () => moreController.current?.abort(), []);

  // After an action the item may be gone or its buttons changed: the focus goes to the message.
  useEffect(() => {
    if (notice) noticeRef.current?.focus();
  }, [notice]);

  function update(key: 'status' | 'reason', value: string) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );
  }

  async function loadMore(cursor: string) {
    moreController.current?.abort();
    const controller = new AbortController();
    moreController.current = controller;
    setMore({ busy: true, error: null });
    try {
      const next = await callApi('moderationQueue', { signal: controller.signal, query: queryOf(status, reason, cursor) });
      if (controller.signal.aborted) return;
      queue.setData((page) => {
        const seen = new Set(page.items.map(itemKey));
        return { items: [...page.items, ...next.items.filter((item) => !seen.has(itemKey(item)))], nextCursor: next.nextCursor };
      });
      setMore({ busy: false, error: null });
    } catch (error) {
      if (controller.signal.aborted) return;
      setMore({ busy: false, error });
    }
  }

  function applied(item: ModerationItem, result: ModerationActionResult) {
    queue.setData((page) => applyResult(page, item, result, status));
    setDialog(null);
    setNotice((current) => ({ message: result.message, seq: (current?.seq ?? 0) + 1 }));
  }

  const filtered = status !== 'open' || reason !== null;
  return (
    <div className="space-y-5">
      <PageHeader title={MODERATION_MESSAGES.queueTitle} description={MODERATION_QUEUE_TEXTS.description} />

      <div className="grid grid-cols-2 gap-3 sm:max-w-xl">
        <Filter label={MODERATION_QUEUE_TEXTS.statusFilter}>
          {(id) => (
            <select id={id} value={status} onChange={(e) => update('status', e.target.value === 'open' ? '' : e.target.value)} className={inputClass}>
              {REPORT_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {REPORT_STATUS_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </Filter>
        <Filter label={MODERATION_QUEUE_TEXTS.reasonFilter}>
          {(id) => (
            <select id={id} value={reason ?? ''} onChange={(e) => update('reason', e.target.value)} className={inputClass}>
              <option value="">{MODERATION_QUEUE_TEXTS.allReasons}</option>
              {REPORT_REASONS.map((value) => (
                <option key={value} value={value}>
                  {REPORT_REASON_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </Filter>
      </div>

      {notice && (
        <div key={notice.seq} ref={noticeRef} tabIndex={-1} className="rounded-2xl outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500">
          <Alert tone="success">{notice.message}</Alert>
        </div>
      )}

      {queue.status === 'error' ? (
        <ErrorBanner error={queue.error} fallback={MODERATION_QUEUE_TEXTS.loadFailed} onRetry={queue.refetch} />
      ) : queue.status !== 'ready' ? (
        <ListSkeleton label={MODERATION_QUEUE_TEXTS.loading} />
      ) : queue.data.items.length === 0 ? (
        <EmptyState message={filtered ? MODERATION_QUEUE_TEXTS.emptyFiltered : MODERATION_MESSAGES.queueEmpty} />
      ) : (
        <div className="space-y-4">
          <ul aria-label={REPORT_STATUS_LABELS[status]} className="space-y-4">
            {queue.data.items.map((item) => (
              <li key={itemKey(item)}>
                <ModerationItemCard item={item} actions={allowedActions(item, isAdmin)} onAction={(action) => setDialog({ item, action })} />
              </li>
            ))}
          </ul>
          <ErrorBanner
            error={more.error}
            fallback={MODERATION_QUEUE_TEXTS.loadFailed}
            onRetry={() => queue.data.nextCursor && void loadMore(queue.data.nextCursor)}
          />
          {queue.data.nextCursor && !more.error && (
            <div className="flex justify-center">
              <button
                type="button"
                className={secondaryButton}
                disabled={more.busy}
                aria-busy={more.busy}
                onClick={() => queue.data.nextCursor && void loadMore(queue.data.nextCursor)}
              >
                {more.busy ? 'Cargando…' : 'Cargar más'}
              </button>
            </div>
          )}
        </div>
      )}

      {dialog && <ActionDialog item={dialog.item} action={dialog.action} onDone={(result) => applied(dialog.item, result)} onCancel={() => setDialog(null)} />}
    </div>
  );
}

function Filter({ label, children }: { label: string; children: (id: string) => ReactNode }) {
  const id = useId();
  return (
    <div className="min-w-0 space-y-1.5">
      <label htmlFor={id} className="block text-sm font-semibold">
        {label}
      </label>
      {children(id)}
    </div>
  );
}
