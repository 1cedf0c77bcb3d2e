import { SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { ActionMenu, type ActionMenuItem } from '../../components/ActionMenu';

interface ItemMenuProps {
  /** The button's accessible name, e.g. 'Opciones de la publicación'. */
  label: string;
  /** Null: no edit item (an admin on someone else's item). */
  onEdit: (() => void) | null;
  deleteLabel: string;
  /** Null: no delete item (a fan on someone else's item, who may only report it). */
  onDelete: (() => void) | null;
  /** An item before the delete one ('Fijar' / 'Desfijar' on a group's post). */
  extra?: { label: string; onSelect: () => void } | null;
  /** 'Reportar' (anybody but the author, until they reported it); null: no such item. */
  onReport?: (() => void) | null;
}

/**
 * The ⋯ menu of a post or comment: Editar (owner only), an extra item, Reportar (others), the delete
 * item (owner, admin or a group's moderator). Nothing at all when no item applies.
 */
export function ItemMenu({ label, onEdit, deleteLabel, onDelete, extra = null, onReport = null }: ItemMenuProps) {
  const items: ActionMenuItem[] = [];
  if (onEdit) items.push({ label: 'Editar', onSelect: onEdit });
  if (extra) items.push(extra);
  if (onReport) items.push({ label: SAFETY_UI.report, onSelect: onReport });
  if (onDelete) items.push({ label: deleteLabel, onSelect: onDelete, tone: 'danger' });
  if (items.length === 0) return null;
  return <ActionMenu label={label} items={items} />;
}
