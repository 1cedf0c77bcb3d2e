import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { bodyOf, requestsOf, stubApi } from '../../../test/apiStub';
import { buildPoll, jsonResponse } from '../../../test/fixtures';
import { ShareButtons } from './ShareButtons';
import { platformShareUrl, pollShareLink } from './shareLinks';

const poll = buildPoll({ title: '¿Quién se va?' });
const sharePath = `POST /api/polls/${poll.id}/shares`;
const link = `${window.location.origin}/?encuesta=${poll.id}`;

function shared(pointsEarned: number, noBonusReason: 'poll-closed' | 'no-bonus' | null = null) {
  return () =>
    jsonResponse(201, { pollId: poll.id, platform: 'copy', pointsEarned, bonusAwarded: pointsEarned > 0, noBonusReason, sharedAt: '2025-01-05T12:00:00.000Z' });
}

/**
 * With a share sheet (navigator.share = `share`): renders for a signed-in user, taps Compartir,
 * runs `check` with the API mock, and removes the sheet again.
 */
async function tapShareSheet(share: () => Promise<void>, check: (fetchMock: ReturnType<typeof stubApi>) => Promise<void> | void) {
  Object.defineProperty(navigator, 'share', { value: share, configurable: true });
  try {
    const fetchMock = stubApi({ [sharePath]: shared(5) });
    const user = userEvent.setup();
    render(<ShareButtons poll={poll} signedIn />);
    await user.click(screen.getByRole('button', { name: 'Compartir' }));
    await check(fetchMock);
  } finally {
    delete (navigator as { share?: unknown }).share;
  }
}

describe('ShareButtons', () => {
  let writeText: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  it('links each network to its share page with the poll link and the Spanish text', () => {
    stubApi({});
    render(<ShareButtons poll={poll} signedIn={false} />);
    const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');
    const text = encodeURIComponent('¡Vota en Tribuna! ¿Quién se va?');
    const url = encodeURIComponent(link);
    expect(hrefOf('WhatsApp')).toBe(`https://wa.me/?text=${text}%20${url}`);
    expect(hrefOf('Facebook')).toBe(`https://www.facebook.com/sharer/sharer.php?u=${url}`);
    expect(hrefOf('X')).toBe(`https://x.com/intent/tweet?text=${text}&url=${url}`);
    expect(hrefOf('Telegram')).toBe(`https://t.me/share/url?url=${url}&text=${text}`);
    for (const name of ['WhatsApp', 'Facebook', 'X', 'Telegram']) {
      expect(screen.getByRole('link', { name }).getAttribute('target')).toBe('_blank');
    }
    // No share sheet in jsdom: no native button.
    expect(screen.queryByRole('button', { name: 'Compartir' })).toBeNull();
  });

  it('copies the link; a visitor shares without a record', async () => {
    const fetchMock = stubApi({});
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ShareButtons poll={poll} signedIn={false} />);

    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    expect(writeText).toHaveBeenCalledWith(link);
    expect(await screen.findByRole('button', { name: '¡Enlace copiado!' })).toBeTruthy();
    expect(requestsOf(fetchMock)).toEqual([]);
  });

  it('records a signed-in share and announces the bonus', async () => {
    const fetchMock = stubApi({ [sharePath]: shared(5) });
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ShareButtons poll={poll} signedIn />);
    expect(screen.getByText('Gana 5 puntos al compartir, una vez al día.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    expect(await screen.findByText('+5 puntos por compartir')).toBeTruthy();
    expect(bodyOf(fetchMock, sharePath)).toEqual({ platform: 'copy' });
  });

  it('says that sharing a closed poll earns nothing, before and after the share', async () => {
    const closed = { ...poll, status: 'closed' as const };
    const fetchMock = stubApi({ [sharePath]: shared(0, 'poll-closed') });
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<ShareButtons poll={closed} signedIn />);
    expect(screen.queryByText('Gana 5 puntos al compartir, una vez al día.')).toBeNull();
    expect(screen.getByText('Esta votación ya cerró: compartirla no suma puntos.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    // The note again, as the share's answer (a toast), and no bonus announced.
    expect(await screen.findAllByText('Esta votación ya cerró: compartirla no suma puntos.')).toHaveLength(2);
    expect(screen.queryByText(/por compartir/)).toBeNull();
    expect(bodyOf(fetchMock, sharePath)).toEqual({ platform: 'copy' });
  });

  it('says when the poll was already shared today (409)', async () => {
    stubApi({
      [sharePath]: () => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: 'You have already shared this poll today' }),
    });
    const user = userEvent.setup();
    render(<ShareButtons poll={poll} signedIn />);
    // The network link opens in a new tab; the click records the share.
    const whatsapp = screen.getByRole('link', { name: 'WhatsApp' });
    whatsapp.addEventListener('click', (event) => event.preventDefault());
    await user.click(whatsapp);
    expect(await screen.findByText('Ya compartiste esta encuesta hoy')).toBeTruthy();
  });

  it('says when too many shares were sent (429)', async () => {
    stubApi({
      [sharePath]: () =>
        jsonResponse(429, { statusCode: 429, error: 'Too Many Requests', message: 'Demasiadas solicitudes. Intenta de nuevo en unos segundos.' }),
    });
    const user = userEvent.setup();
    render(<ShareButtons poll={poll} signedIn />);
    const whatsapp = screen.getByRole('link', { name: 'WhatsApp' });
    whatsapp.addEventListener('click', (event) => event.preventDefault());
    await user.click(whatsapp);
    expect(await screen.findByText('Demasiadas solicitudes. Intenta de nuevo en unos segundos.')).toBeTruthy();
  });

  it('uses the share sheet where the browser has one, and records it as native', async () => {
    const share = vi.fn(async () => {});
    await tapShareSheet(share, async (fetchMock) => {
      expect(share).toHaveBeenCalledWith({ title: poll.title, text: '¡Vota en Tribuna! ¿Quién se va?', url: link });
      expect(await screen.findByText('+5 puntos por compartir')).toBeTruthy();
      expect(bodyOf(fetchMock, sharePath)).toEqual({ platform: 'native' });
    });
  });

  it('records nothing when the share sheet is dismissed', async () => {
    const share = vi.fn(async () => {
      throw new DOMException('cancelled', 'AbortError');
    });
    await tapShareSheet(share, (fetchMock) => {
      expect(requestsOf(fetchMock)).toEqual([]);
    });
  });

  it('builds the link from the origin', () => {
    expect(pollShareLink('abc', 'https://tribuna.mx')).toBe('https://tribuna.mx/?encuesta=abc');
    expect(platformShareUrl('telegram', 'https://t.mx/?encuesta=1', 'hola')).toBe('https://t.me/share/url?url=https%3A%2F%2Ft.mx%2F%3Fencuesta%3D1&text=hola');
  });
});
