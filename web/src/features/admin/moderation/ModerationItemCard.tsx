import { useId } from 'react';
import type { ModerationItem } from '@tribuna/contracts/api/moderation';
import {
  MODERATION_ACTION_LABELS,
  MODERATION_QUEUE_TEXTS,
  MODERATION_STATE_LABELS,
  REPORT_REASON_LABELS,
  type ModerationAction,
} from '@tribuna/contracts/moderationRules';
import { StatusBadge } from '../../../components/admin/StatusBadge';
import { panel } from '../../../components/admin/buttons';
import { formatDateTime } from '../../../lib/dates';
import { AuthorPanel } from './AuthorPanel';
import { ItemPreview } from './ItemPreview';
import { DANGEROUS_ACTIONS, STATE_TONES, isReportReason, itemName, itemState, itemTitle, orderedReasons } from './moderationItem';

const actionButton =
  'inline-flex min-h-11 items-center justify-center rounded-full px-4 py-2 text-sm font-semibold text-fuchsia-700 ring-1 ring-fuchsia-600/30 transition hover:bg-fuchsia-50 dark:text-fuchsia-300 dark:ring-fuchsia-400/30 dark:hover:bg-white/10';
const dangerActionButton =
  'inline-flex min-h-11 items-center justify-center rounded-full px-4 py-2 text-sm font-semibold text-rose-700 ring-1 ring-rose-600/30 transition hover:bg-rose-50 dark:text-rose-300 dark:ring-rose-400/30 dark:hover:bg-rose-500/10';

interface ModerationItemCardProps {
  item: ModerationItem;
  /** The actions offered (item.actions, less what the viewer may not do). */
  actions: ModerationAction[];
  onAction: (action: ModerationAction) => void;
}

/**
 * One reported item: what it is and its state, how many reports and why, the reporters' latest
 * comments (never who wrote them), the item as readers see it, its author with their history, and
 * the actions the viewer may take.
 */
export function ModerationItemCard({ item, actions, onAction }: ModerationItemCardProps) {
  const headingId = useId();
  const state = itemState(item);
  const name = itemName(item);
  return (
    <article aria-labelledby={headingId} className={`${panel} space-y-4 p-4 sm:p-5`}>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h3 id={headingId} className="min-w-0 text-base font-bold break-words">
            {itemTitle(item)}
          </h3>
          <StatusBadge tone={STATE_TONES[state]} className="whitespace-normal!">
            {MODERATION_STATE_LABELS[state]}
          </StatusBadge>
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <span className="font-bold text-slate-900 dark:text-white">{MODERATION_QUEUE_TEXTS.reports(item.reportCount)}</span>
          {' · '}
          {MODERATION_QUEUE_TEXTS.lastReport} <time dateTime={item.lastReportedAt}>{formatDateTime(item.lastReportedAt)}</time>
        </p>
        <ul aria-label={MODERATION_QUEUE_TEXTS.reasons} className="flex flex-wrap gap-1.5">
          {orderedReasons(item).map(([reason, count]) => (
            <li key={reason}>
              <StatusBadge
                tone="fuchsia"
                className="tabular-nums"
              >{`${isReportReason(reason) ? REPORT_REASON_LABELS[reason] : reason} · ${count}`}</StatusBadge>
            </li>
          ))}
        </ul>
      </header>

      <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <div className="min-w-0 space-y-4">
          <ItemPreview item={item} />
          {item.comments.length > 0 && (
            <div>
              <h4 className="text-sm font-semibold">{MODERATION_QUEUE_TEXTS.reportersComments}</h4>
              <ul className="mt-2 space-y-2">
                {item.comments.map((comment, index) => (
                  <li
                    key={index}
                    className="rounded-xl border-l-4 border-slate-300 bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-wrap dark:border-white/20 dark:bg-white/5"
                  >
                    {comment}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </div>
        <AuthorPanel author={item.author} />
      </div>

      {actions.length > 0 && (
        <div
          role="group"
          aria-label={`${MODERATION_QUEUE_TEXTS.actions}: ${name}`}
          className="flex flex-wrap gap-2 border-t border-slate-200 pt-3 dark:border-white/10"
        >
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              aria-label={`${MODERATION_ACTION_LABELS[action]}: ${name}`}
              onClick={() => onAction(action)}
              className={DANGEROUS_ACTIONS.includes(action) ? dangerActionButton : actionButton}
            >
              {MODERATION_ACTION_LABELS[action]}
            </button>
          ))}
        </div>
      )}
    </article>
  );
}
