import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { PostView, ReactionState } from '@tribuna/contracts/api/wall';
import { useSessionStore } from '../../lib/session/sessionStore';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { FakeIntersectionObserver, installFakeIntersectionObserver } from '../../test/fakeIntersectionObserver';
import { FakeXhr, installFakeXhr } from '../../test/fakeXhr';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildAuthor, buildComment, buildPost, buildReply, buildVideoMedia, feedPage, noReactions } from '../../test/wallFixtures';
import { PostFeed } from './Feed';

const me = buildProfile({ id: '30000000-0000-4000-8000-000000000002', role: 'user' });
const admin = buildProfile({ id: '30000000-0000-4000-8000-000000000003', role: 'admin' });
const mine = (overrides: Partial<PostView> = {}) => buildPost({ author: buildAuthor({ id: me.id, displayName: me.displayName }), ...overrides });

/** Renders a feed holding `post`, with extra API handlers. */
async function renderPost(post: PostView, handlers: Record<string, Handler> = {}) {
  const fetchMock = stubApi({ 'GET /api/posts?userId=u': () => jsonResponse(200, feedPage([post])), ...handlers });
  render(
    <MemoryRouter>
      <PostFeed filters={{ userId: 'u' }} />
    </MemoryRouter>,
  );
  await screen.findByRole('article', { name: /^Publicación de/ });
  return fetchMock;
}

describe('PostCard', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeIntersectionObserver();
    installFakeXhr();
  });

  it('links the author, shows the time, Editado and the images with +N', async () => {
    const media = Array.from({ length: 6 }, (_, i) => ({
      mediaType: 'image' as const,
      url: `/media/${i}.webp`,
      thumbnailUrl: `/media/${i}-thumb.webp`,
      width: 800,
      height: 600,
      placeholder: null,
      alt: i === 0 ? 'Carla en la gala' : null,
    }));
    const post = buildPost({ author: buildAuthor({ displayName: null, username: 'pepe' }), editedAt: new Date().toISOString(), media });
    await renderPost(post);
    expect(screen.getByRole('link', { name: 'pepe' }).getAttribute('href')).toBe(`/perfil/${post.author.id}`);
    expect(screen.getByText(/Editado/)).toBeTruthy();
    const tiles = screen.getAllByRole('button', { name: /Ver imagen/ });
    expect(tiles).toHaveLength(4);
    expect(within(tiles[3]!).getByText('+2')).toBeTruthy();
    const first = tiles[0]!.querySelector('img')!;
    expect(first.getAttribute('alt')).toBe('Carla en la gala');
    expect(first.getAttribute('width')).toBe('800');
    expect(first.getAttribute('src')).toBe('/media/0-thumb.webp');

    const user = userEvent.setup();
    await user.click(tiles[1]!);
    const viewer = screen.getByRole('dialog', { name: 'Visor de imágenes' });
    expect(within(viewer).getByText('2 / 6')).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(within(viewer).getByText('3 / 6')).toBeTruthy();
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(within(viewer).getByText('1 / 6')).toBeTruthy();
    const stage = within(viewer).getByTestId('viewer-stage');
    fireEvent.pointerDown(stage, { pointerId: 1, clientX: 300, clientY: 100 });
    fireEvent.pointerUp(stage, { pointerId: 1, clientX: 100, clientY: 110 });
    expect(within(viewer).getByText('2 / 6')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('plays a video post inline: poster over its ThumbHash, nothing preloaded, no autoplay, its length, full screen', async () => {
    const requestFullscreen = vi.fn(() => Promise.resolve());
    Object.defineProperty(HTMLElement.prototype, 'requestFullscreen', { value: requestFullscreen, configurable: true });
    try {
      const post = buildPost({ media: [buildVideoMedia({ alt: 'El baile final', durationS: 75, width: 720, height: 1280 })] });
      await renderPost(post);
      const video = screen.getByLabelText('El baile final') as HTMLVideoElement;
      expect(video.tagName).toBe('VIDEO');
      expect(video.getAttribute('src')).toBe('/media/ab/clip.mp4');
      expect(video.getAttribute('poster')).toBe('/media/ab/poster.webp');
      expect(video.getAttribute('preload')).toBe('none');
      expect(video.controls).toBe(true);
      expect(video.hasAttribute('playsinline')).toBe(true);
      expect(video.autoplay).toBe(false);
      expect(video.muted).toBe(false);
      expect(video.style.backgroundImage).toMatch(/^url\("?data:image\/png;base64,/);
      // A portrait clip keeps 4:5 at most (letterboxed), so a phone's feed stays readable.
      expect(video.style.aspectRatio).toBe('4 / 5');
      expect(screen.queryByRole('button', { name: /Ver imagen/ })).toBeNull();

      const article = screen.getByRole('article');
      expect(within(article).getByText('1:15')).toBeTruthy();
      expect(within(article).getByText('Duración:')).toBeTruthy();
      await userEvent.setup().click(within(article).getByRole('button', { name: 'Ver video en pantalla completa' }));
      expect(requestFullscreen).toHaveBeenCalledTimes(1);
      expect(requestFullscreen.mock.contexts[0]).toBe(video);
      fireEvent.play(video);
      expect(within(article).queryByText('1:15')).toBeNull();
    } finally {
      delete (HTMLElement.prototype as { requestFullscreen?: unknown }).requestFullscreen;
    }
  });

  it("labels a clip without alt text 'Video'", async () => {
    await renderPost(buildPost({ media: [buildVideoMedia({ alt: null, durationS: null, placeholder: null })] }));
    const video = screen.getByLabelText('Video');
    expect(video.tagName).toBe('VIDEO');
    expect(video.getAttribute('preload')).toBe('none');
    expect(video.style.backgroundImage).toBe('');
    expect(video.style.aspectRatio).toBe('1280 / 720');
  });

  it('toggles a reaction optimistically and keeps what the server answers', async () => {
    const post = buildPost({ reactions: { ...noReactions(), like: 2 } });
    let answer: ReactionState = { reactions: { ...noReactions(), like: 2, love: 1 }, myReaction: 'love' };
    const fetchMock = await renderPost(post, { [`POST /api/posts/${post.id}/reactions`]: () => jsonResponse(200, answer) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reaccionar' }));
    const picker = screen.getByRole('group', { name: 'Elige una reacción' });
    expect(
      within(picker)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Me gusta', 'Me encanta', 'Me divierte', 'Me asombra', 'Me entristece', 'Me enoja']);
    await user.click(within(picker).getByRole('button', { name: 'Me encanta' }));
    expect(bodyOf(fetchMock, `POST /api/posts/${post.id}/reactions`)).toEqual({ type: 'love' });
    const mine = await screen.findByRole('button', { name: 'Tu reacción: Me encanta. Cambiar reacción' });
    expect(screen.getByRole('list', { name: 'Reacciones' }).textContent).toContain('Me encanta: 1');

    answer = { reactions: { ...noReactions(), like: 2 }, myReaction: null };
    await user.click(mine);
    await user.click(screen.getByRole('button', { name: 'Me encanta' }));
    expect(await screen.findByRole('button', { name: 'Reaccionar' })).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Reacciones' }).textContent).not.toContain('Me encanta');
  });

  it('closes the reaction picker with Escape, and disables reactions for visitors', async () => {
    const post = buildPost();
    await renderPost(post);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reaccionar' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Elige una reacción' })).toBeNull();
  });

  it('disables reactions when signed out, and offers a visitor only Reportar', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    await renderPost(buildPost());
    expect((screen.getByRole('button', { name: 'Reaccionar' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Reportar']);
  });

  it('gives the owner Editar and Eliminar, and deletes after confirming', async () => {
    const post = mine();
    const fetchMock = await renderPost(post, { [`DELETE /api/posts/${post.id}`]: () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Editar', 'Eliminar']);
    await user.click(screen.getByRole('menuitem', { name: 'Eliminar' }));
    const dialog = screen.getByRole('dialog', { name: '¿Eliminar esta publicación?' });
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
    expect(requestsOf(fetchMock)).toContain(`DELETE /api/posts/${post.id}`);
  });

  it("gives an admin 'Reportar' and 'Eliminar como Admin' on someone else's post; other fans only 'Reportar'", async () => {
    useSessionStore.setState({ user: admin, status: 'ready' });
    await renderPost(buildPost());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Reportar', 'Eliminar como Admin']);
  });

  it("gives another fan only 'Reportar' on someone else's post", async () => {
    await renderPost(buildPost());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Reportar']);
  });

  it('edits inline and says so when saving fails', async () => {
    const post = mine({ content: 'Texto viejo' });
    let fail = true;
    await renderPost(post, {
      [`PATCH /api/posts/${post.id}`]: () =>
        fail
          ? jsonResponse(500, { statusCode: 500, error: 'x', message: 'x' })
          : jsonResponse(200, { ...post, content: 'Texto nuevo', editedAt: new Date().toISOString() }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    await user.click(screen.getByRole('menuitem', { name: 'Editar' }));
    const box = screen.getByRole('textbox', { name: 'Editar publicación' });
    await user.clear(box);
    await user.type(box, 'Texto nuevo');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Error al editar la publicación');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Texto nuevo')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Editar publicación' })).toBeNull();
  });
});

describe('Comments', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeIntersectionObserver();
    installFakeXhr();
  });

  function commentsOf(post: PostView) {
    const top = Array.from({ length: 5 }, (_, i) => buildComment(post.id, { content: `Comentario ${i + 1}` }));
    top[0] = { ...top[0]!, replies: [buildReply(post.id, { parentCommentId: top[0]!.id, content: 'Respuesta 1' })] };
    top[1] = { ...top[1]!, author: buildAuthor({ id: me.id, displayName: me.displayName }) };
    return top;
  }

  it('shows the first 3 comments, then Ver más comentarios (n más) / Ver menos', async () => {
    const post = buildPost({ commentCount: 6 });
    const comments = commentsOf(post);
    await renderPost(post, { [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments, commentCount: 6 }) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '6 comentarios' }));
    await screen.findByText('Comentario 1');
    expect(screen.queryByText('Comentario 4')).toBeNull();
    expect(screen.getByText('Respuesta 1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ver más comentarios (2 más)' }));
    expect(screen.getByText('Comentario 5')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ver menos' }));
    expect(screen.queryByText('Comentario 5')).toBeNull();
  });

  it('offers Responder on top-level comments only, and the right menu labels', async () => {
    useSessionStore.setState({ user: admin, status: 'ready' });
    const post = buildPost({ commentCount: 2 });
    const own = buildComment(post.id, { content: 'Mío', author: buildAuthor({ id: admin.id }) });
    const other = buildComment(post.id, { content: 'Ajeno', replies: [] });
    other.replies = [buildReply(post.id, { parentCommentId: other.id, content: 'Una respuesta' })];
    await renderPost(post, { [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [own, other], commentCount: 3 }) });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '2 comentarios' }));
    await screen.findByText('Mío');
    const [ownItem, otherItem, replyItem] = screen.getAllByRole('article', { name: /^Comentario de/ });
    expect(within(ownItem!).getByRole('button', { name: 'Responder' })).toBeTruthy();
    expect(within(otherItem!).getAllByRole('button', { name: 'Responder' })).toHaveLength(1);
    expect(within(replyItem!).queryByRole('button', { name: 'Responder' })).toBeNull();

    await user.click(within(ownItem!).getByRole('button', { name: 'Opciones del comentario' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Editar', 'Eliminar']);
    await user.keyboard('{Escape}');
    await user.click(within(replyItem!).getByRole('button', { name: 'Opciones del comentario' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Reportar', 'Eliminar Admin']);
    await user.click(screen.getByRole('menuitem', { name: 'Eliminar Admin' }));
    expect(screen.getByRole('dialog', { name: '¿Eliminar este comentario?' })).toBeTruthy();
  });

  it('validates and sends a reply as multipart, and adds it once even when the live message repeats it', async () => {
    const live = spyLive();
    const post = buildPost({ commentCount: 1 });
    const parent = buildComment(post.id, { content: 'Comentario padre' });
    await renderPost(post, { [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [parent], commentCount: 1 }) });
    FakeIntersectionObserver.trigger(screen.getByRole('article', { name: /^Publicación de/ }), true);
    await waitFor(() => expect(live.topics()).toContain(`post:${post.id}`));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '1 comentario' }));
    await screen.findByText('Comentario padre');
    await user.click(screen.getByRole('button', { name: 'Responder' }));
    const form = screen.getByRole('form', { name: 'Responder' });
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(within(form).getByRole('alert').textContent).toBe('El comentario no puede estar vacío');
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: 'x'.repeat(501) } });
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    expect(within(form).getByRole('alert').textContent).toBe('El comentario no puede exceder 500 caracteres');

    const bigImage = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
    fireEvent.change(within(form).getByTestId('reply-image'), { target: { files: [bigImage] } });
    expect(within(form).getByRole('alert').textContent).toBe('La imagen no puede exceder 5MB');

    await user.clear(within(form).getByRole('textbox'));
    await user.type(within(form).getByRole('textbox'), 'Mi respuesta');
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    const xhr = FakeXhr.last;
    expect(xhr.url).toBe(`/api/posts/${post.id}/comments`);
    expect(xhr.headers['X-Requested-With']).toBe('tribuna');
    expect(xhr.fields()).toEqual([
      ['content', 'Mi respuesta'],
      ['parentCommentId', parent.id],
    ]);
    const reply = buildReply(post.id, { parentCommentId: parent.id, content: 'Mi respuesta', author: buildAuthor({ id: me.id }) });
    await act(async () => xhr.respond(201, { comment: reply, commentCount: 2 }));
    expect(screen.getAllByText('Mi respuesta')).toHaveLength(1);
    expect(screen.getByRole('button', { name: '2 comentarios' })).toBeTruthy();

    live.deliver({ type: 'comment-created', topic: `post:${post.id}`, postId: post.id, comment: reply, commentCount: 2 });
    expect(screen.getAllByText('Mi respuesta')).toHaveLength(1);

    const other = buildReply(post.id, { content: 'De otra persona' });
    live.deliver({ type: 'comment-created', topic: `post:${post.id}`, postId: post.id, comment: other, commentCount: 3 });
    expect(screen.getByText('De otra persona')).toBeTruthy();
    expect(screen.getByRole('button', { name: '3 comentarios' })).toBeTruthy();

    live.deliver({ type: 'comment-deleted', topic: `post:${post.id}`, postId: post.id, commentId: other.id, commentCount: 2 });
    expect(screen.queryByText('De otra persona')).toBeNull();
    expect(screen.getByRole('button', { name: '2 comentarios' })).toBeTruthy();
  });

  it("toggles a comment's Me gusta", async () => {
    const post = buildPost({ commentCount: 1 });
    const comment = buildComment(post.id, { content: 'Buen punto' });
    const fetchMock = await renderPost(post, {
      [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [comment], commentCount: 1 }),
      [`POST /api/comments/${comment.id}/reactions`]: () => jsonResponse(200, { reactions: { ...noReactions(), like: 1 }, myReaction: 'like' }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '1 comentario' }));
    await user.click(await screen.findByRole('button', { name: 'Me gusta' }));
    const liked = await screen.findByRole('button', { name: 'Me gusta (1)' });
    expect(liked.getAttribute('aria-pressed')).toBe('true');
    expect(bodyOf(fetchMock, `POST /api/comments/${comment.id}/reactions`)).toEqual({ type: 'like' });
  });
});
