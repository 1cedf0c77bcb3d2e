import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { useSessionStore } from '../../lib/session/sessionStore';
import { stubApi } from '../../test/apiStub';
import { FakeXhr, installFakeXhr } from '../../test/fakeXhr';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { buildPost, feedPage } from '../../test/wallFixtures';
import { Composer } from './Composer';
import { WallPage } from './WallPage';

const me = buildProfile();
const image = (name: string, bytes = 10, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });
const pick = (files: File[]) => fireEvent.change(screen.getByTestId('post-images'), { target: { files } });

function renderComposer(onCreated = vi.fn()) {
  render(
    <MemoryRouter>
      <Composer onCreated={onCreated} />
    </MemoryRouter>,
  );
  return onCreated;
}

describe('Composer', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeXhr();
  });

  it('asks visitors to sign in', () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    renderComposer();
    expect((screen.getByPlaceholderText('Inicia sesión para publicar') as HTMLTextAreaElement).disabled).toBe(true);
    expect(screen.getByRole('link', { name: 'Inicia sesión para publicar' }).getAttribute('href')).toBe('/login');
  });

  it('refuses an empty post and a text over 2000 characters, and counts characters', async () => {
    const user = userEvent.setup();
    renderComposer();
    expect(screen.getByText('0/2000')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.empty);

    fireEvent.change(screen.getByPlaceholderText('¿Qué está pasando?'), { target: { value: 'a'.repeat(2001) } });
    expect(screen.getByText('2001/2000')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.postTooLong);
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('checks the picked files: at most 10, images only, each under 10 MB', () => {
    renderComposer();
    pick(Array.from({ length: 11 }, (_, i) => image(`${i}.png`)));
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.tooManyFiles);
    pick([new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.imagesOnly);
    pick([image('big.png', 10 * 1024 * 1024)]);
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.postImageTooLarge);
    expect(screen.queryByRole('list', { name: 'Imágenes seleccionadas' })).toBeNull();
  });

  it('inserts an emoji at the caret and closes the picker on an outside click after a delay', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderComposer();
      const textarea = screen.getByPlaceholderText('¿Qué está pasando?') as HTMLTextAreaElement;
      await user.type(textarea, 'Hola mundo');
      textarea.setSelectionRange(4, 4);
      await user.click(screen.getByRole('button', { name: 'Agregar emoji' }));
      const picker = screen.getByRole('dialog', { name: 'Selector de emojis' });
      expect(within(picker).getByText('Haz clic en un emoji para agregarlo')).toBeTruthy();
      for (const name of ['Caras', 'Corazones', 'Gestos', 'Actividades', 'Objetos', 'Símbolos'])
        expect(within(picker).getByRole('button', { name })).toBeTruthy();
      fireEvent.click(within(picker).getByRole('button', { name: '😀' }));
      expect(textarea.value).toBe('Hola😀 mundo');

      act(() => vi.advanceTimersByTime(150));
      fireEvent.mouseDown(document.body);
      expect(screen.queryByRole('dialog', { name: 'Selector de emojis' })).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends text, images and alt texts as multipart with progress, then hands over the new post', async () => {
    const onCreated = renderComposer();
    const user = userEvent.setup();
    await user.type(screen.getByPlaceholderText('¿Qué está pasando?'), '  ¡Vamos Carla!  ');
    pick([image('a.png'), image('b.jpg', 20, 'image/jpeg')]);
    const alts = screen.getAllByPlaceholderText('Texto alternativo (opcional)');
    expect(alts).toHaveLength(2);
    await user.type(alts[1]!, 'Carla en la gala');
    await user.click(screen.getByRole('button', { name: 'Publicar' }));

    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/posts');
    expect(xhr.headers['X-Requested-With']).toBe('tribuna');
    expect(xhr.fields()).toEqual([
      ['content', '¡Vamos Carla!'],
      ['images', 'file:a.png'],
      ['images', 'file:b.jpg'],
      ['alt', ''],
      ['alt', 'Carla en la gala'],
    ]);
    act(() => xhr.progress(50, 100));
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('50');

    const post = buildPost({ content: '¡Vamos Carla!' });
    await act(async () => xhr.respond(201, post));
    expect(onCreated).toHaveBeenCalledWith(post);
    expect((screen.getByPlaceholderText('¿Qué está pasando?') as HTMLTextAreaElement).value).toBe('');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryAllByPlaceholderText('Texto alternativo (opcional)')).toHaveLength(0);
  });

  it("shows the server's message, or the fallback", async () => {
    renderComposer();
    const user = userEvent.setup();
    await user.type(screen.getByPlaceholderText('¿Qué está pasando?'), 'Hola');
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    await act(async () => FakeXhr.last.respond(400, { statusCode: 400, error: 'Bad Request', message: WALL_MESSAGES.typeMismatch }));
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.typeMismatch);

    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    await act(async () => FakeXhr.last.respond(502, undefined));
    expect(screen.getByRole('alert').textContent).toBe('Error al crear la publicación');
  });

  it('puts the new post on top of the wall', async () => {
    stubApi({ 'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post viejo' })])) });
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <WallPage />
      </MemoryRouter>,
    );
    await screen.findByText('Post viejo');
    await user.type(screen.getByPlaceholderText('¿Qué está pasando?'), 'Post nuevo');
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    await act(async () =>
      FakeXhr.last.respond(
        201,
        buildPost({ content: 'Post nuevo', author: { id: me.id, displayName: me.displayName, username: me.username, avatarUrl: null } }),
      ),
    );
    const cards = screen.getAllByRole('article');
    expect(within(cards[0]!).getByText('Post nuevo')).toBeTruthy();
    expect(within(cards[1]!).getByText('Post viejo')).toBeTruthy();
  });
});
