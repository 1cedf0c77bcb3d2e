import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { useSiteStore } from '../../lib/siteStore';
import { TermsPage } from './TermsPage';
import { PrivacyPage } from './PrivacyPage';
import { TermsContent } from '../../components/legal/TermsContent';

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<p>home page</p>} />
        <Route path="/terminos" element={<TermsPage />} />
        <Route path="/privacidad" element={<PrivacyPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const contact = 'contacto@tribuna.mx';

describe('legal pages', () => {
  beforeEach(() => {
    useSiteStore.setState({
      status: 'ready',
      config: {
        contactEmail: contact,
        devLogin: false,
        social: { whatsapp: null, facebook: null, instagram: null, tiktok: null, x: null },
      },
    });
  });

  it('shows the terms in exactly 12 numbered h2 sections', () => {
    renderAt('/terminos');
    expect(screen.getByRole('heading', { level: 1, name: 'Términos y Condiciones' })).toBeTruthy();
    expect(screen.getByText('Última actualización: 5 de enero de 2025')).toBeTruthy();
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([
      '1. Aceptación de los términos',
      '2. Descripción del servicio',
      '3. Registro de usuarios',
      '4. Uso aceptable',
      '5. Votaciones y puntos',
      '6. Contenido de los usuarios',
      '7. Privacidad',
      '8. Limitación de responsabilidad',
      '9. Modificaciones',
      '10. Terminación',
      '11. Ley aplicable',
      '12. Contacto',
    ]);
    expect(screen.getByText(/Solo se permite una cuenta por persona/)).toBeTruthy();
    expect(screen.getByText(/no son canjeables por dinero/)).toBeTruthy();
    expect(screen.getByText(/no afectan de ninguna manera el desarrollo ni el resultado del programa/)).toBeTruthy();
    expect(screen.getByText(/Tribuna no está afiliada/)).toBeTruthy();
    expect(screen.getByText(/leyes de los Estados Unidos Mexicanos/)).toBeTruthy();
    expect(screen.getByRole('link', { name: contact }).getAttribute('href')).toBe(`mailto:${contact}`);
  });

  it('shows the privacy policy with its date, the under-13 rule and the contact mailbox', () => {
    renderAt('/privacidad');
    expect(screen.getByRole('heading', { level: 1, name: 'Política de Privacidad' })).toBeTruthy();
    expect(screen.getByText('Última actualización: 5 de enero de 2025')).toBeTruthy();
    expect(screen.getByText(/menores de 13 años/)).toBeTruthy();
    expect(screen.getByText(/No vendemos, alquilamos ni compartimos/)).toBeTruthy();
    expect(screen.getAllByRole('link', { name: contact }).length).toBeGreaterThan(0);
  });

  it('goes back to / with Volver', async () => {
    const user = userEvent.setup();
    renderAt('/privacidad');
    await user.click(screen.getByRole('link', { name: 'Volver' }));
    expect(screen.getByText('home page')).toBeTruthy();
  });

  it('embeds the terms without the page chrome, with lower-level headings', () => {
    render(
      <MemoryRouter>
        <TermsContent headingLevel={3} />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('link', { name: 'Volver' })).toBeNull();
    expect(screen.queryAllByRole('heading', { level: 2 })).toHaveLength(0);
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(12);
  });
});
