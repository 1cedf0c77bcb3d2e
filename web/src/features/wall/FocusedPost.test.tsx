import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { useSessionStore } from '../../lib/session/sessionStore';
import { postHref } from '../../lib/postHref';
import { requestsOf, stubApi } from '../../test/apiStub';
import { FakeIntersectionObserver, installFakeIntersectionObserver } from '../../test/fakeIntersectionObserver';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildComment, buildPost, buildReply, feedPage, noReactions } from '../../test/wallFixtures';
import { WallPage } from './WallPage';

const me = buildProfile({ id: '30000000-0000-4000-8000-000000000001' });
const notFound = () => jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Post not found' });
const serverError = () => jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Boom' });

function renderWallAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <WallPage />
    </MemoryRouter>,
  );
}

const focusedRegion = () => screen.getByRole('region', { name: 'Publicación' });
const postTexts = () =>
  screen
    .queryAllByRole('article')
    .filter((a) => a.getAttribute('aria-label')?.startsWith('Publicación de'))
    .map((a) => within(a).queryByText(/^Post /)?.textContent ?? null);

describe('WallPage ?post= (a notification opens one post)', () => {
  let scrollIntoView: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeIntersectionObserver();
    // jsdom does not scroll elements into view.
    scrollIntoView = vi.fn();
    Element.prototype.scrollIntoView = scrollIntoView as unknown as Element['scrollIntoView'];
  });

  afterEach(() => {
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });

  it('shows a skeleton, then the post above the feed with its comments open, scrolled to and focused', async () => {
    const focused = buildPost({ content: 'Post enfocado', commentCount: 1 });
    const other = buildPost({ content: 'Post B' });
    const comment = buildComment(focused.id, { content: 'Un comentario' });
    const fetchMock = stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([focused, other])),
      [`GET /api/posts/${focused.id}`]: () => jsonResponse(200, focused),
      [`GET /api/posts/${focused.id}/comments`]: () => jsonResponse(200, { comments: [comment], commentCount: 1 }),
    });
    renderWallAt(postHref({ postId: focused.id }));

    const region = focusedRegion();
    expect(within(region).getByRole('heading', { level: 2, name: 'Publicación' })).toBeTruthy();
    expect(within(region).getByRole('status').textContent).toContain('Cargando publicación');
    expect(region.getAttribute('aria-busy')).toBe('true');

    expect(await within(region).findByText('Post enfocado')).toBeTruthy();
    expect(await within(region).findByText('Un comentario')).toBeTruthy();
    expect(within(region).getByRole('button', { name: '1 comentario' }).getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(region);
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView.mock.contexts[0]).toBe(region);

    // The feed below leaves it out: it is not shown twice.
    await screen.findByText('Post B');
    expect(postTexts()).toEqual(['Post enfocado', 'Post B']);
    expect(requestsOf(fetchMock)).toEqual(
      expect.arrayContaining([`GET /api/posts/${focused.id}`, `GET /api/posts/${focused.id}/comments`, 'GET /api/posts?sort=activity']),
    );
  });

  it("says 'Esta publicación ya no está disponible' on 404 and still shows the wall", async () => {
    const gone = buildPost();
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })])),
      [`GET /api/posts/${gone.id}`]: notFound,
    });
    renderWallAt(postHref({ postId: gone.id }));
    const alert = await within(focusedRegion()).findByRole('alert');
    expect(alert.textContent).toBe('Esta publicación ya no está disponible');
    expect(await screen.findByText('Post A')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Muro' })).toBeTruthy();
    expect(document.activeElement).toBe(focusedRegion());
  });

  it('does not ask the server about something that is not a post id', async () => {
    const fetchMock = stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })])),
      'GET /api/me/video-uploads': () => jsonResponse(200, { uploads: [] }),
    });
    renderWallAt('/wall?post=..%2Fadmin');
    expect(within(focusedRegion()).getByRole('alert').textContent).toBe('Esta publicación ya no está disponible');
    await screen.findByText('Post A');
    // The feed, and the signed-in author's clips being processed; nothing about the bad id.
    expect(requestsOf(fetchMock).sort()).toEqual(['GET /api/me/video-uploads', 'GET /api/posts?sort=activity']);
  });

  it('offers Reintentar when the post fails to load for another reason', async () => {
    const post = buildPost({ content: 'Post enfocado' });
    let calls = 0;
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([])),
      [`GET /api/posts/${post.id}`]: () => (++calls === 1 ? serverError() : jsonResponse(200, post)),
      [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [], commentCount: 0 }),
    });
    const user = userEvent.setup();
    renderWallAt(postHref({ postId: post.id }));
    const alert = await within(focusedRegion()).findByRole('alert');
    expect(alert.textContent).toContain('No se pudo cargar la publicación');
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await within(focusedRegion()).findByText('Post enfocado')).toBeTruthy();
    expect(within(focusedRegion()).queryByRole('alert')).toBeNull();
  });

  it("'Ver todo el muro' drops the query: the post goes back to its place in the feed", async () => {
    const focused = buildPost({ content: 'Post enfocado' });
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' }), focused])),
      [`GET /api/posts/${focused.id}`]: () => jsonResponse(200, focused),
      [`GET /api/posts/${focused.id}/comments`]: () => jsonResponse(200, { comments: [], commentCount: 0 }),
    });
    const user = userEvent.setup();
    renderWallAt(postHref({ postId: focused.id }));
    await within(focusedRegion()).findByText('Post enfocado');
    await screen.findByText('Post A');
    expect(postTexts()).toEqual(['Post enfocado', 'Post A']);

    const link = screen.getByRole('link', { name: 'Ver todo el muro' });
    expect(link.getAttribute('href')).toBe('/wall');
    await user.click(link);
    expect(screen.queryByRole('region', { name: 'Publicación' })).toBeNull();
    expect(postTexts()).toEqual(['Post A', 'Post enfocado']);
  });

  it('watches the focused card like any card on screen: live reactions, then its deletion', async () => {
    const live = spyLive();
    const focused = buildPost({ content: 'Post enfocado' });
    stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([])),
      [`GET /api/posts/${focused.id}`]: () => jsonResponse(200, focused),
      [`GET /api/posts/${focused.id}/comments`]: () => jsonResponse(200, { comments: [], commentCount: 0 }),
    });
    renderWallAt(postHref({ postId: focused.id }));
    await within(focusedRegion()).findByText('Post enfocado');
    const card = within(focusedRegion()).getByRole('article');
    FakeIntersectionObserver.trigger(card, true);
    await waitFor(() => expect(live.topics()).toContain(`post:${focused.id}`));

    live.deliver({ type: 'post-reactions', topic: `post:${focused.id}`, postId: focused.id, reactions: { ...noReactions(), love: 2 }, seq: 4 });
    expect(within(focusedRegion()).getByRole('list', { name: 'Reacciones' }).textContent).toContain('2');
    // An older snapshot arriving late changes nothing.
    live.deliver({ type: 'post-reactions', topic: `post:${focused.id}`, postId: focused.id, reactions: { ...noReactions(), love: 7 }, seq: 3 });
    expect(within(focusedRegion()).getByRole('list', { name: 'Reacciones' }).textContent).not.toContain('7');

    live.deliver({
      type: 'comment-created',
      topic: `post:${focused.id}`,
      postId: focused.id,
      comment: buildReply(focused.id, { content: 'Comentario en directo' }),
      commentCount: 1,
    });
    expect(within(focusedRegion()).getByText('Comentario en directo')).toBeTruthy();

    live.deliver({ type: 'post-deleted', topic: `post:${focused.id}`, postId: focused.id });
    expect(within(focusedRegion()).getByRole('alert').textContent).toBe('Esta publicación ya no está disponible');
    expect(within(focusedRegion()).queryByRole('article')).toBeNull();
  });
});
