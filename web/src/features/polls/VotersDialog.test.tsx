import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { VotersDialog } from './VotersDialog';

const luis = { userId: '00000000-0000-4000-8000-0000000000a1', displayName: 'Luis', avatarUrl: null };
const marta = { userId: '00000000-0000-4000-8000-0000000000a2', displayName: 'Marta', avatarUrl: null };

function renderDialog(props: Partial<Parameters<typeof VotersDialog>[0]> = {}) {
  render(
    <MemoryRouter>
      <VotersDialog optionLabel="Carla Ruiz" voters={[]} totalVoters={0} listed onClose={vi.fn()} {...props} />
    </MemoryRouter>,
  );
  return within(screen.getByRole('dialog', { name: 'Votantes de Carla Ruiz' }));
}

describe('VotersDialog', () => {
  it('signed out: the count and an invitation to sign in, no names', () => {
    const dialog = renderDialog({ listed: false, totalVoters: 12 });
    expect(dialog.getByText('12 votantes')).toBeTruthy();
    const signIn = dialog.getByRole('link', { name: 'Inicia sesión para ver quién votó' });
    expect(signIn.getAttribute('href')).toBe('/login');
    expect(dialog.queryAllByRole('listitem')).toEqual([]);
  });

  it('signed in: the names (no points), and the fans not named counted as "y N más"', () => {
    const dialog = renderDialog({ voters: [marta, luis], totalVoters: 5 });
    expect(dialog.getAllByRole('listitem').map((item) => item.textContent)).toEqual([expect.stringContaining('Marta'), expect.stringContaining('Luis')]);
    expect(dialog.getByRole('link', { name: 'Marta' }).getAttribute('href')).toBe(`/perfil/${marta.userId}`);
    expect(dialog.queryByText(/punto/)).toBeNull();
    expect(dialog.getByText('y 3 más')).toBeTruthy();
  });

  it('signed in, nobody named: the count alone; nobody voted: "No hay votos aún"', () => {
    expect(renderDialog({ totalVoters: 2 }).getByText('2 votantes')).toBeTruthy();
    screen.getByRole('dialog').remove();
    expect(renderDialog().getByText('No hay votos aún')).toBeTruthy();
  });
});
