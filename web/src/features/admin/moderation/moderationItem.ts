// What the queue's screen derives from a ModerationItem (contracts/src/api/moderation.ts).
import type { ModerationActionResult, ModerationItem, ModerationQueue } from '@tribuna/contracts/api/moderation';
import {
  MODERATION_ACTIONS,
  MODERATION_STATE_LABELS,
  REPORT_REASONS,
  REPORT_TARGET_LABELS,
  type ModerationAction,
  type ReportReason,
  type ReportStatus,
} from '@tribuna/contracts/moderationRules';
import type { BadgeTone } from '../../../components/admin/StatusBadge';
import { displayNameOf } from '../../../lib/displayName';

/** One item of the queue, whatever its kind: 'post:{id}'. */
export const itemKey = (item: Pick<ModerationItem, 'targetType' | 'targetId'>) => `${item.targetType}:${item.targetId}`;

/** 'Publicación de Ana López' (the item's heading). */
export const itemTitle = (item: ModerationItem) => `${REPORT_TARGET_LABELS[item.targetType]} de ${displayNameOf(item.author)}`;

/** 'publicación de Ana López' (inside a sentence or after an action's name). */
export const itemName = (item: ModerationItem) => {
  const title = itemTitle(item);
  return title.charAt(0).toLocaleLowerCase('es') + title.slice(1);
};

export type ItemState = keyof typeof MODERATION_STATE_LABELS;

/** The state as the queue tells it: hidden with no moderator's action yet is 'autoHidden'. */
export const itemState = (item: ModerationItem): ItemState => (item.state === 'hidden' && item.autoHidden ? 'autoHidden' : item.state);

export const STATE_TONES: Record<ItemState, BadgeTone> = { visible: 'green', hidden: 'slate', autoHidden: 'amber', deleted: 'rose' };

/** The item's reasons with their counts, in the order of REPORT_REASONS (unknown ones last). */
export function orderedReasons(item: ModerationItem): Array<[string, number]> {
  const known = REPORT_REASONS.filter((reason) => item.reasons[reason]).map((reason): [string, number] => [reason, item.reasons[reason]!]);
  const others = Object.entries(item.reasons).filter(([reason]) => !(REPORT_REASONS as readonly string[]).includes(reason));
  return [...known, ...others];
}

export const isReportReason = (value: string): value is ReportReason => (REPORT_REASONS as readonly string[]).includes(value);

/** What the viewer may do with the item, in the order of MODERATION_ACTIONS; 'suspend' only for site admins. */
export function allowedActions(item: ModerationItem, isAdmin: boolean): ModerationAction[] {
  return MODERATION_ACTIONS.filter((action) => item.actions.includes(action) && (action !== 'suspend' || isAdmin));
}

/** Actions whose confirm button is red: they take something away from the author for good or for long. */
export const DANGEROUS_ACTIONS: readonly ModerationAction[] = ['delete', 'suspend'];

/**
 * The queue after an action on `item`: the item as the server answered it, or gone from the list
 * when it has no report left, or (on the 'Pendientes' list) when the action closed its open reports.
 */
export function applyResult(queue: ModerationQueue, item: ModerationItem, result: ModerationActionResult, status: ReportStatus): ModerationQueue {
  const key = itemKey(item);
  const leaves = result.item === null || (status === 'open' && result.closedReports > 0);
  return {
    ...queue,
    items: leaves ? queue.items.filter((i) => itemKey(i) !== key) : queue.items.map((i) => (itemKey(i) === key && result.item ? result.item : i)),
  };
}
