import type { ReactNode } from 'react';
import { panel } from './buttons';

/** One column of the wide screens' table. */
export interface AdminColumn<Row> {
  /** The column heading. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Classes of the heading and of every cell of the column (e.g. 'text-right'). */
  className?: string;
  /** Classes of the cells only. */
  cellClassName?: string;
  /** The cell names its row: a row heading (<th scope="row">) instead of a plain cell. */
  rowHeader?: boolean;
}

interface AdminTableProps<Row> {
  /** Names the list (aria-label) and the table (caption), e.g. 'Encuestas'. */
  label: string;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  columns: readonly AdminColumn<Row>[];
  /** What a row's card holds on narrow screens. */
  card: (row: Row) => ReactNode;
  /** From which width the table replaces the cards: md (default), or xl for a wide table. */
  breakpoint?: 'md' | 'xl';
  /** The list's layout (default one card under the other). */
  listClassName?: string;
  /** Classes added to each card. */
  cardClassName?: string;
  /** Narrower cells, for a table of many columns. */
  compact?: boolean;
}

const classes = (...names: Array<string | undefined>) => names.filter(Boolean).join(' ');

// Written out whole, so that Tailwind finds the classes.
const LIST_HIDDEN = { md: 'md:hidden', xl: 'xl:hidden' } as const;
const TABLE_SHOWN = { md: 'hidden md:block', xl: 'hidden xl:block' } as const;

/**
 * A back-office list as cards on a phone and as a table from `breakpoint` up. Both are in the page,
 * one of them hidden by CSS.
 */
export function AdminTable<Row>({
  label,
  rows,
  rowKey,
  columns,
  card,
  breakpoint = 'md',
  listClassName = 'space-y-3',
  cardClassName,
  compact = false,
}: AdminTableProps<Row>) {
  const padding = compact ? 'px-3 py-3' : 'px-4 py-3';
  return (
    <>
      <ul aria-label={label} className={classes(listClassName, LIST_HIDDEN[breakpoint])}>
        {rows.map((row) => (
          <li key={rowKey(row)} className={classes(panel, 'p-4', cardClassName)}>
            {card(row)}
          </li>
        ))}
      </ul>

      <div className={classes(panel, TABLE_SHOWN[breakpoint], 'overflow-x-auto')}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{label}</caption>
          <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-500 uppercase dark:border-white/10 dark:text-slate-400">
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col" className={classes(padding, 'font-semibold', column.className)}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-white/5">
            {rows.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => {
                  const className = classes(padding, column.className, column.cellClassName);
                  return column.rowHeader ? (
                    <th key={column.header} scope="row" className={classes(className, 'text-left font-normal')}>
                      {column.cell(row)}
                    </th>
                  ) : (
                    <td key={column.header} className={className}>
                      {column.cell(row)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
