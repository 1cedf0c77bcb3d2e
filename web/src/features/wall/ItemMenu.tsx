import { ActionMenu, type ActionMenuItem } from '../../components/ActionMenu';

interface ItemMenuProps {
  /** The button's accessible name, e.g. 'Opciones de la publicación'. */
  label: string;
  /** Null: no edit item (an admin on someone else's item). */
  onEdit: (() => void) | null;
  deleteLabel: string;
  onDelete: () => void;
  /** An item before the delete one ('Fijar' / 'Desfijar' on a group's post). */
  extra?: { label: string; onSelect: () => void } | null;
}

/** The ⋯ menu of a post or comment for its owner, an admin or a group's moderator: Editar (owner only), an extra item, the delete item. */
export function ItemMenu({ label, onEdit, deleteLabel, onDelete, extra = null }: ItemMenuProps) {
  const items: ActionMenuItem[] = [];
  if (onEdit) items.push({ label: 'Editar', onSelect: onEdit });
  if (extra) items.push(extra);
  items.push({ label: deleteLabel, onSelect: onDelete, tone: 'danger' });
  return <ActionMenu label={label} items={items} />;
}
