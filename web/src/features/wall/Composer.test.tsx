import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { VIDEO_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { useSessionStore } from '../../lib/session/sessionStore';
import { stubApi } from '../../test/apiStub';
import { installFakeVideo, pickedFile } from '../../test/fakeVideo';
import { FakeXhr, installFakeXhr } from '../../test/fakeXhr';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildAuthor, buildPost, buildVideoMedia, buildVideoUpload, feedPage } from '../../test/wallFixtures';
import { Composer } from './Composer';
import { MEDIA_EXCLUSIVE } from './validation';
import { useVideoUploadsStore } from './videoUploadsStore';
import { WallPage } from './WallPage';

const me = buildProfile();
const image = (name: string, bytes = 10, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });
const pick = (files: File[]) => fireEvent.change(screen.getByTestId('post-images'), { target: { files } });
/** Picks a clip in the video input; its length is read asynchronously, as in a browser. */
const pickVideo = async (files: File[]) => {
  await act(async () => {
    fireEvent.change(screen.getByTestId('post-video'), { target: { files } });
  });
};
const clip = (name: string, size = 2_000_000, type = 'video/mp4') => pickedFile(name, type, size);

function renderComposer(onCreated = vi.fn(), groupId?: string) {
  render(
    <MemoryRouter>
      <Composer onCreated={onCreated} groupId={groupId} />
    </MemoryRouter>,
  );
  return onCreated;
}

describe('Composer', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeXhr();
    useVideoUploadsStore.getState().reset(null);
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

  it("offers 'Público' (first) or 'Seguidores' outside groups and sends the choice; in a group it posts for the group", async () => {
    const user = userEvent.setup();
    renderComposer();
    const audience = screen.getByRole('combobox', { name: 'Visible para' }) as HTMLSelectElement;
    expect(Array.from(audience.options).map((o) => o.text)).toEqual(['Público', 'Seguidores']);
    expect(audience.value).toBe('public');
    await user.selectOptions(audience, 'Seguidores');
    await user.type(screen.getByPlaceholderText('¿Qué está pasando?'), 'Solo para mis seguidores');
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    expect(FakeXhr.last.fields()).toEqual([
      ['content', 'Solo para mis seguidores'],
      ['visibility', 'followers'],
    ]);
    cleanup();

    const groupId = '60000000-0000-4000-8000-000000000001';
    renderComposer(vi.fn(), groupId);
    expect(screen.queryByRole('combobox', { name: 'Visible para' })).toBeNull();
    await user.type(screen.getByPlaceholderText('¿Qué está pasando?'), 'Hola grupo');
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    expect(FakeXhr.last.fields()).toEqual([
      ['content', 'Hola grupo'],
      ['groupId', groupId],
      ['visibility', 'group'],
    ]);
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
      ['visibility', 'public'],
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
  it("checks a picked clip with the server's messages: MP4, MOV or WebM, at most 50 MB, at most 3 minutes", async () => {
    installFakeVideo({ 'long.mp4': VIDEO_LIMITS.maxDurationS + 1, 'ok.mov': 42, 'odd.webm': null });
    renderComposer();
    await pickVideo([pickedFile('song.mp3', 'audio/mpeg')]);
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.mediaOnly);
    await pickVideo([clip('big.mp4', VIDEO_LIMITS.maxBytes + 1)]);
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.videoTooLarge);
    await pickVideo([clip('long.mp4')]);
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.videoTooLong);
    expect(screen.queryByTestId('video-preview')).toBeNull();

    // Exactly 50 MB and within 3 minutes: taken, with a muted preview that does not play by itself.
    await pickVideo([clip('ok.mov', VIDEO_LIMITS.maxBytes, 'video/quicktime')]);
    expect(screen.queryByRole('alert')).toBeNull();
    const preview = screen.getByTestId('video-preview') as HTMLVideoElement;
    expect(preview.getAttribute('src')).toBe('blob:fake/ok.mov#t=0.1');
    expect(preview.muted).toBe(true);
    expect(preview.autoplay).toBe(false);

    // A length this browser cannot read is left to the server; the new clip replaces the old one.
    await pickVideo([clip('odd.webm', 1000, 'video/webm')]);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('video-preview').getAttribute('src')).toBe('blob:fake/odd.webm#t=0.1');
    expect(screen.getAllByTestId('video-preview')).toHaveLength(1);
  });

  it('takes images or one video, never both, and says so', async () => {
    installFakeVideo({ 'clip.mp4': 10 });
    const user = userEvent.setup();
    renderComposer();
    await pickVideo([clip('clip.mp4')]);
    await user.click(screen.getByRole('button', { name: 'Agregar imágenes' }));
    expect(screen.getByRole('alert').textContent).toBe(MEDIA_EXCLUSIVE.imagesAfterVideo);
    pick([image('a.png')]);
    expect(screen.getByRole('alert').textContent).toBe(MEDIA_EXCLUSIVE.imagesAfterVideo);
    expect(screen.queryByRole('list', { name: 'Imágenes seleccionadas' })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Quitar video' }));
    expect(screen.queryByTestId('video-preview')).toBeNull();
    pick([image('a.png')]);
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Agregar video' }));
    expect(screen.getByRole('alert').textContent).toBe(MEDIA_EXCLUSIVE.videoAfterImages);
    await pickVideo([clip('clip.mp4')]);
    expect(screen.getByRole('alert').textContent).toBe(MEDIA_EXCLUSIVE.videoAfterImages);
    expect(screen.queryByTestId('video-preview')).toBeNull();
    expect(screen.getByRole('list', { name: 'Imágenes seleccionadas' })).toBeTruthy();
  });

  it("uploads the clip with progress, shows the server's refusal, and can cancel", async () => {
    installFakeVideo({ 'gala.mp4': 20 });
    const user = userEvent.setup();
    renderComposer();
    await pickVideo([clip('gala.mp4')]);
    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    await act(async () => FakeXhr.last.respond(400, { statusCode: 400, error: 'Bad Request', message: WALL_MESSAGES.videoUnreadable }));
    expect(screen.getByRole('alert').textContent).toBe(WALL_MESSAGES.videoUnreadable);
    expect(screen.getByTestId('video-preview')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Publicar' }));
    act(() => FakeXhr.last.progress(1, 4));
    expect(screen.getByRole('progressbar', { name: 'Subiendo video' }).getAttribute('aria-valuenow')).toBe('25');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByTestId('video-preview')).toBeTruthy();
  });

  it("posts a clip to /api/posts/video, shows 'Procesando video…' on top of the wall, then its post once published", async () => {
    installFakeVideo({ 'gala.mp4': 95 });
    const live = spyLive();
    const upload = buildVideoUpload({ content: 'Mi clip de la gala', createdAt: new Date().toISOString() });
    const post = buildPost({
      content: 'Mi clip de la gala',
      author: buildAuthor({ id: me.id, displayName: me.displayName }),
      media: [buildVideoMedia({ alt: 'El escenario' })],
    });
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post viejo' })])),
      'GET /api/me/video-uploads': () => jsonResponse(200, { uploads: [] }),
      [`GET /api/posts/${post.id}`]: () => jsonResponse(200, post),
    });
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <WallPage />
      </MemoryRouter>,
    );
    await screen.findByText('Post viejo');
    await user.type(screen.getByPlaceholderText('¿Qué está pasando?'), ' Mi clip de la gala ');
    await pickVideo([clip('gala.mp4')]);
    await user.type(screen.getByRole('textbox', { name: 'Texto alternativo (opcional) del video' }), 'El escenario');
    await user.click(screen.getByRole('button', { name: 'Publicar' }));

    const xhr = FakeXhr.last;
    expect([xhr.method, xhr.url]).toEqual(['POST', '/api/posts/video']);
    expect(xhr.headers['X-Requested-With']).toBe('tribuna');
    expect(xhr.fields()).toEqual([
      ['content', 'Mi clip de la gala'],
      ['visibility', 'public'],
      ['alt', 'El escenario'],
      ['video', 'file:gala.mp4'],
    ]);
    act(() => xhr.progress(30, 100));
    expect(screen.getByRole('progressbar', { name: 'Subiendo video' }).getAttribute('aria-valuenow')).toBe('30');
    expect((screen.getByRole('button', { name: 'Publicando…' }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => xhr.respond(202, upload));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.queryByTestId('video-preview')).toBeNull();
    expect((screen.getByPlaceholderText('¿Qué está pasando?') as HTMLTextAreaElement).value).toBe('');
    const card = screen.getByRole('article', { name: 'Tu video en proceso' });
    expect(within(card).getByRole('status').textContent).toBe(WALL_MESSAGES.videoProcessing);
    expect(within(card).getByText('Mi clip de la gala')).toBeTruthy();
    expect(screen.getAllByRole('article')[0]).toBe(card);
    expect(live.topics()).toContain(`user:${me.id}`);

    live.deliver({ type: 'video-upload', topic: `user:${me.id}`, uploadId: upload.id, status: 'published', postId: post.id });
    const published = await screen.findByRole('article', { name: `Publicación de ${me.displayName}` });
    expect(screen.queryByRole('article', { name: 'Tu video en proceso' })).toBeNull();
    expect(screen.getAllByRole('article')[0]).toBe(published);
    expect(published.querySelector('video')?.getAttribute('aria-label')).toBe('El escenario');
  });
});
