import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FactorEnrolment, FactorList } from '@tribuna/contracts/api/auth';
import { bodyOf, requestsOf, stubApi } from '../../test/apiStub';
import { buildProfile, jsonResponse, signedInSession } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { TwoFactorCard } from './TwoFactorCard';

const factorId = '00000000-0000-4000-8000-0000000000f2';
const challengeId = '00000000-0000-4000-8000-0000000000c2';
const enrolment: FactorEnrolment = {
  id: factorId,
  uri: 'otpauth://totp/Tribuna:ana?secret=JBSWY3DPEHPK3PXP&issuer=Tribuna',
  secret: 'JBSWY3DPEHPK3PXP',
  qrCode: 'data:image/svg+xml;base64,PHN2Zy8+',
};
const factors = (status?: 'verified' | 'unverified'): FactorList => ({
  factors: status ? [{ id: factorId, factorType: 'totp', status, createdAt: '2025-01-05T12:00:00.000Z' }] : [],
});
const challenge = () => jsonResponse(200, { challengeId, expiresAt: '2025-01-05T12:05:00.000Z' });
const badCode = () => jsonResponse(400, { statusCode: 400, error: 'Bad Request', message: 'Código inválido' });

const card = () => within(screen.getByRole('region', { name: 'Verificación en dos pasos' }));

describe('TwoFactorCard', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: buildProfile(), status: 'ready', mfaFactorId: null });
  });

  it('enrols a factor: QR code, copyable secret, then a first code activates it', async () => {
    const user = userEvent.setup();
    let verifications = 0;
    const fetchMock = stubApi({
      'GET /api/auth/factors': () => jsonResponse(200, factors('unverified')),
      'POST /api/auth/factors': () => jsonResponse(201, enrolment),
      [`POST /api/auth/factors/${factorId}/challenge`]: challenge,
      [`POST /api/auth/factors/${factorId}/verify`]: () => (++verifications === 1 ? badCode() : jsonResponse(200, signedInSession(buildProfile()))),
    });
    render(<TwoFactorCard />);

    // An unverified factor does not count as active.
    expect(await card().findByText('Desactivada')).toBeTruthy();
    await user.click(card().getByRole('button', { name: 'Activar' }));

    const qr = await card().findByRole('img', { name: 'Código QR para configurar la verificación en dos pasos' });
    expect(qr.getAttribute('src')).toBe(enrolment.qrCode);
    expect(card().getByText(enrolment.secret).tagName).toBe('CODE');
    await user.click(card().getByRole('button', { name: 'Copiar' }));
    // user-event stands in a clipboard for the browser's.
    expect(await navigator.clipboard.readText()).toBe(enrolment.secret);
    expect(await card().findByRole('button', { name: 'Copiada' })).toBeTruthy();

    const input = card().getByRole('textbox', { name: 'Código de la app' });
    await user.type(input, '111111');
    await user.click(card().getByRole('button', { name: 'Confirmar y activar' }));
    expect((await card().findByRole('alert')).textContent).toBe('Código inválido');

    await user.type(input, '222222');
    await user.click(card().getByRole('button', { name: 'Confirmar y activar' }));

    expect(await card().findByText('Activada')).toBeTruthy();
    expect(card().getByRole('status').textContent).toContain('está activada');
    expect(card().queryByRole('img')).toBeNull();
    expect(card().getByRole('button', { name: 'Desactivar' })).toBeTruthy();
    expect(bodyOf(fetchMock, `POST /api/auth/factors/${factorId}/verify`)).toEqual({ challengeId, code: '111111' });
  });

  it('shows an active factor and removes it with a current code', async () => {
    const user = userEvent.setup();
    let deletions = 0;
    const fetchMock = stubApi({
      'GET /api/auth/factors': () => jsonResponse(200, factors('verified')),
      [`DELETE /api/auth/factors/${factorId}`]: () => (++deletions === 1 ? badCode() : new Response(null, { status: 204 })),
    });
    render(<TwoFactorCard />);

    expect(await card().findByText('Activada')).toBeTruthy();
    await user.click(card().getByRole('button', { name: 'Desactivar' }));

    const input = card().getByRole('textbox', { name: 'Código actual' });
    expect(document.activeElement).toBe(input);
    await user.type(input, '333333');
    await user.click(card().getByRole('button', { name: 'Desactivar' }));
    expect((await card().findByRole('alert')).textContent).toBe('Código inválido');
    expect(card().getByText('Activada')).toBeTruthy();

    await user.type(input, '444444');
    await user.click(card().getByRole('button', { name: 'Desactivar' }));

    expect(await card().findByText('Desactivada')).toBeTruthy();
    expect(card().getByRole('button', { name: 'Activar' })).toBeTruthy();
    expect(requestsOf(fetchMock).filter((r) => r.startsWith('DELETE'))).toHaveLength(2);
    expect(bodyOf(fetchMock, `DELETE /api/auth/factors/${factorId}`)).toEqual({ code: '333333' });
  });

  it('lets the user back out of disabling', async () => {
    const user = userEvent.setup();
    stubApi({ 'GET /api/auth/factors': () => jsonResponse(200, factors('verified')) });
    render(<TwoFactorCard />);

    await user.click(await card().findByRole('button', { name: 'Desactivar' }));
    await user.click(card().getByRole('button', { name: 'Cancelar' }));

    expect(card().getByText('Activada')).toBeTruthy();
    expect(card().queryByRole('textbox')).toBeNull();
  });

  it("shows the server's message when enrolment fails", async () => {
    const user = userEvent.setup();
    stubApi({
      'GET /api/auth/factors': () => jsonResponse(200, factors()),
      'POST /api/auth/factors': () => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: 'Ya tienes un factor activo' }),
    });
    render(<TwoFactorCard />);

    await user.click(await card().findByRole('button', { name: 'Activar' }));

    expect((await card().findByRole('alert')).textContent).toBe('Ya tienes un factor activo');
  });

  it('offers to retry when the state cannot be loaded', async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    stubApi({
      'GET /api/auth/factors': () =>
        ++attempts === 1 ? jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Error interno' }) : jsonResponse(200, factors()),
    });
    render(<TwoFactorCard />);

    expect((await card().findByRole('alert')).textContent).toContain('No se pudo cargar');
    await user.click(card().getByRole('button', { name: 'Reintentar' }));

    expect(await card().findByText('Desactivada')).toBeTruthy();
  });
});
