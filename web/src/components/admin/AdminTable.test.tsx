import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { AdminTable, type AdminColumn } from './AdminTable';

interface Fan {
  id: string;
  name: string;
  points: number;
}

const fans: Fan[] = [
  { id: 'a', name: 'Ana López', points: 120 },
  { id: 'b', name: 'Bruno Díaz', points: 7 },
];

const columns: AdminColumn<Fan>[] = [
  { header: 'Fan', rowHeader: true, cell: (fan) => fan.name },
  { header: 'Puntos', className: 'text-right', cellClassName: 'tabular-nums', cell: (fan) => fan.points.toLocaleString('es') },
  { header: 'Acciones', cell: (fan) => <button type="button">{`Editar ${fan.name}`}</button> },
];

function renderTable(props: Partial<Parameters<typeof AdminTable<Fan>>[0]> = {}) {
  return render(
    <AdminTable
      label="Fans"
      rows={fans}
      rowKey={(fan) => fan.id}
      columns={columns}
      card={(fan) => (
        <p>
          {fan.name} · {fan.points} puntos
        </p>
      )}
      {...props}
    />,
  );
}

describe('AdminTable', () => {
  it('renders the rows as a table named by its caption, from the column definitions', () => {
    renderTable();
    const table = screen.getByRole('table', { name: 'Fans' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Fan', 'Puntos', 'Acciones']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    // The first column names its row; the others are cells, with their classes.
    expect(within(rows[0]!).getByRole('rowheader').textContent).toBe('Ana López');
    const cells = within(rows[0]!).getAllByRole('cell');
    expect(cells.map((c) => c.textContent)).toEqual(['120', 'Editar Ana López']);
    expect(cells[0]!.className).toContain('text-right');
    expect(cells[0]!.className).toContain('tabular-nums');
    expect(within(table).getByRole('columnheader', { name: 'Puntos' }).className).toContain('text-right');
    expect(within(rows[1]!).getByRole('button', { name: 'Editar Bruno Díaz' })).toBeTruthy();
  });

  it('renders the same rows as a list of cards, shown below the breakpoint while the table is hidden', () => {
    renderTable();
    const list = screen.getByRole('list', { name: 'Fans' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((card) => card.textContent),
    ).toEqual(['Ana López · 120 puntos', 'Bruno Díaz · 7 puntos']);
    expect(list.className).toContain('md:hidden');
    expect(screen.getByRole('table').parentElement!.className).toContain('hidden md:block');
  });

  it('switches at xl, with the list layout, card classes and narrower cells asked for', () => {
    renderTable({ breakpoint: 'xl', listClassName: 'grid gap-3 sm:grid-cols-2', cardClassName: 'flex flex-col', compact: true });
    const list = screen.getByRole('list', { name: 'Fans' });
    expect(list.className).toBe('grid gap-3 sm:grid-cols-2 xl:hidden');
    expect(within(list).getAllByRole('listitem')[0]!.className).toContain('flex flex-col');
    expect(screen.getByRole('table').parentElement!.className).toContain('hidden xl:block');
    expect(screen.getByRole('columnheader', { name: 'Fan' }).className).toContain('px-3');
  });

  it('renders an empty list and a table with only its headings when there are no rows', () => {
    renderTable({ rows: [] });
    expect(within(screen.getByRole('list', { name: 'Fans' })).queryAllByRole('listitem')).toHaveLength(0);
    expect(within(screen.getByRole('table', { name: 'Fans' })).getAllByRole('row')).toHaveLength(1);
  });
});
