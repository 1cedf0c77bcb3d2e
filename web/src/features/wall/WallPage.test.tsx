import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { WALL_LIMITS } from '@tribuna/contracts/wallRules';
import { useSessionStore } from '../../lib/session/sessionStore';
import { requestsOf, stubApi } from '../../test/apiStub';
import { FakeIntersectionObserver, installFakeIntersectionObserver } from '../../test/fakeIntersectionObserver';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { pinClock } from '../../test/clock';
import { WALL_NOW, buildAuthor, buildPost, feedPage } from '../../test/wallFixtures';
import { PostFeed, USER_EMPTY } from './Feed';
import { WallPage } from './WallPage';

const me = buildProfile({ id: '30000000-0000-4000-8000-000000000001' });
const serverError = () => jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Error al cargar publicaciones' });

function renderWall() {
  return render(
    <MemoryRouter initialEntries={['/wall']}>
      <WallPage />
    </MemoryRouter>,
  );
}

const cardTitles = () => screen.queryAllByRole('article').map((a) => a.getAttribute('aria-label'));
const postTexts = () => screen.queryAllByRole('article').map((a) => within(a).queryByText(/^Post /)?.textContent ?? null);

describe('WallPage feed', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeIntersectionObserver();
  });

  it('shows the title, skeletons while loading, then the posts', async () => {
    pinClock(WALL_NOW);
    stubApi({ 'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })])) });
    renderWall();
    expect(screen.getByRole('heading', { level: 1, name: 'Muro' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Cargando publicaciones');
    expect(await screen.findByText('Post A')).toBeTruthy();
    expect(screen.getByText('hace 5 minutos')).toBeTruthy();
    expect(screen.getByText('No hay más publicaciones que mostrar')).toBeTruthy();
  });

  it('pages with the cursor and drops posts it already shows', async () => {
    const a = buildPost({ content: 'Post A' });
    const b = buildPost({ content: 'Post B' });
    const c = buildPost({ content: 'Post C' });
    const fetchMock = stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([a, b], 'c1')),
      'GET /api/posts?sort=activity&cursor=c1': () => jsonResponse(200, feedPage([b, c], null)),
      'GET /api/me/video-uploads': () => jsonResponse(200, { uploads: [] }),
    });
    const user = userEvent.setup();
    renderWall();
    await screen.findByText('Post B');
    await user.click(screen.getByRole('button', { name: 'Cargar más publicaciones' }));
    await screen.findByText('Post C');
    expect(postTexts()).toEqual(['Post A', 'Post B', 'Post C']);
    expect(screen.getByText('No hay más publicaciones que mostrar')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cargar más publicaciones' })).toBeNull();
    expect(requestsOf(fetchMock).filter((request) => request.startsWith('GET /api/posts'))).toEqual([
      'GET /api/posts?sort=activity',
      'GET /api/posts?sort=activity&cursor=c1',
    ]);
  });

  it('loads the next page when the end comes within 200 px (infinite scroll)', async () => {
    const fetchMock = stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })], 'c1')),
      'GET /api/posts?sort=activity&cursor=c1': () => jsonResponse(200, feedPage([buildPost({ content: 'Post B' })], null)),
    });
    renderWall();
    await screen.findByText('Post A');
    // The sentinel's observer is set up by an effect after the page renders: wait for it.
    const observer = await vi.waitFor(() => {
      const [found] = FakeIntersectionObserver.withMargin(`${WALL_LIMITS.infiniteScrollMarginPx}px`);
      expect(found).toBeTruthy();
      return found;
    });
    FakeIntersectionObserver.trigger([...observer!.elements][0]!, true);
    await screen.findByText('Post B');
    expect(requestsOf(fetchMock)).toContain('GET /api/posts?sort=activity&cursor=c1');
  });

  it('shows the empty state of the wall and of a user feed', async () => {
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([])),
      'GET /api/posts?userId=u1': () => jsonResponse(200, feedPage([])),
    });
    renderWall();
    expect(await screen.findByText('No hay publicaciones')).toBeTruthy();
    expect(screen.getByText('Sé el primero en publicar algo.')).toBeTruthy();

    render(
      <MemoryRouter>
        <PostFeed filters={{ userId: 'u1' }} empty={USER_EMPTY} />
      </MemoryRouter>,
    );
    expect(await screen.findByText('Este usuario aún no ha publicado nada.')).toBeTruthy();
  });

  it('says when the first page fails, and Reintentar loads it again', async () => {
    let calls = 0;
    stubApi({ 'GET /api/posts?sort=activity': () => (++calls === 1 ? serverError() : jsonResponse(200, feedPage([buildPost({ content: 'Post A' })]))) });
    const user = userEvent.setup();
    renderWall();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error al cargar publicaciones');
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Post A')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('keeps the posts when a later page fails, with a dismissible error', async () => {
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })], 'c1')),
      'GET /api/posts?sort=activity&cursor=c1': serverError,
    });
    const user = userEvent.setup();
    renderWall();
    await screen.findByText('Post A');
    await user.click(screen.getByRole('button', { name: 'Cargar más publicaciones' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error al cargar publicaciones');
    expect(screen.getByText('Post A')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Cerrar aviso' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('button', { name: 'Cargar más publicaciones' })).toBeTruthy();
  });

  it('starts paging over when the sort changes', async () => {
    const fetchMock = stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })], 'c1')),
      'GET /api/posts?sort=activity&cursor=c1': () => jsonResponse(200, feedPage([buildPost({ content: 'Post B' })], 'c2')),
      'GET /api/posts?sort=recent': () => jsonResponse(200, feedPage([buildPost({ content: 'Post R' })], 'r1')),
    });
    const user = userEvent.setup();
    renderWall();
    await screen.findByText('Post A');
    await user.click(screen.getByRole('button', { name: 'Cargar más publicaciones' }));
    await screen.findByText('Post B');

    const recent = screen.getByRole('button', { name: '🆕 Más recientes' });
    await user.click(recent);
    expect(recent.getAttribute('aria-pressed')).toBe('true');
    await screen.findByText('Post R');
    expect(postTexts()).toEqual(['Post R']);
    expect(requestsOf(fetchMock).at(-1)).toBe('GET /api/posts?sort=recent');
  });

  it('counts posts of others published live and loads them on demand', async () => {
    const live = spyLive();
    let calls = 0;
    const fresh = buildPost({ content: 'Post nuevo' });
    const old = buildPost({ content: 'Post A' });
    stubApi({ 'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage(++calls === 1 ? [old] : [fresh, old])) });
    const user = userEvent.setup();
    renderWall();
    await screen.findByText('Post A');
    expect(live.topics()).toContain('feed');

    live.deliver({ type: 'feed-post', topic: 'feed', postId: fresh.id, authorId: buildAuthor().id });
    expect(screen.getByRole('button', { name: /1 publicación nueva/ })).toBeTruthy();
    live.deliver({ type: 'feed-post', topic: 'feed', postId: buildPost().id, authorId: buildAuthor().id });
    // My own posts are already on top: not counted.
    live.deliver({ type: 'feed-post', topic: 'feed', postId: buildPost().id, authorId: me.id });
    const notice = screen.getByRole('button', { name: /2 publicaciones nuevas/ });
    // Nothing was inserted under the reader's eyes.
    expect(postTexts()).toEqual(['Post A']);

    const scrollTo = vi.spyOn(window, 'scrollTo');
    await user.click(notice);
    await screen.findByText('Post nuevo');
    expect(postTexts()).toEqual(['Post nuevo', 'Post A']);
    expect(scrollTo).toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: /publicaci(ón|ones) nuevas?/ })).toBeNull();
  });

  it('watches the cards on screen and removes one deleted live', async () => {
    const live = spyLive();
    const a = buildPost({ content: 'Post A' });
    const b = buildPost({ content: 'Post B' });
    stubApi({ 'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([a, b])) });
    renderWall();
    await screen.findByText('Post A');
    const [cardA, cardB] = screen.getAllByRole('article');
    FakeIntersectionObserver.trigger(cardA!, true);
    FakeIntersectionObserver.trigger(cardB!, true);
    await waitFor(() => expect(live.topics()).toEqual(expect.arrayContaining([`post:${a.id}`, `post:${b.id}`])));

    FakeIntersectionObserver.trigger(cardB!, false);
    await waitFor(() => expect(live.topics()).not.toContain(`post:${b.id}`));

    live.deliver({ type: 'post-updated', topic: `post:${a.id}`, postId: a.id, content: 'Post A editado', editedAt: new Date().toISOString() });
    expect(screen.getByText('Post A editado')).toBeTruthy();
    expect(within(screen.getAllByRole('article')[0]!).getByText(/Editado/)).toBeTruthy();

    live.deliver({ type: 'post-deleted', topic: `post:${a.id}`, postId: a.id });
    expect(postTexts()).toEqual(['Post B']);
    expect(cardTitles()).toHaveLength(1);
  });

  it('refetches a watched post after a resync and drops it when it is gone', async () => {
    const live = spyLive();
    const a = buildPost({ content: 'Post A' });
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([a])),
      [`GET /api/posts/${a.id}`]: () => jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Post not found' }),
    });
    renderWall();
    await screen.findByText('Post A');
    FakeIntersectionObserver.trigger(screen.getByRole('article'), true);
    await waitFor(() => expect(live.topics()).toContain(`post:${a.id}`));
    await live.resync(`post:${a.id}`);
    await waitFor(() => expect(screen.queryByText('Post A')).toBeNull(), { timeout: 5_000 });
    expect(screen.getByText('No hay publicaciones')).toBeTruthy();
  });
});
