import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { useSessionStore } from '../../lib/session/sessionStore';
import { requestsOf, stubApi } from '../../test/apiStub';
import { installFakeIntersectionObserver } from '../../test/fakeIntersectionObserver';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildAuthor, buildPost, feedPage } from '../../test/wallFixtures';
import { FOLLOWED_SILENT, FOLLOWS_NOBODY } from './followingEmpty';
import { WallPage } from './WallPage';

const me = buildProfile({ id: '30000000-0000-4000-8000-0000000000f1' });
const luis = buildAuthor({ displayName: 'Luis Pérez' });
const FOLLOWING = 'GET /api/posts?sort=activity&following=true';

function renderWall(path = '/wall') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <WallPage />
    </MemoryRouter>,
  );
}

const postTexts = () => screen.queryAllByRole('article').map((a) => within(a).queryByText(/^Post /)?.textContent ?? null);
const myProfile = (followingCount: number) => () =>
  jsonResponse(200, {
    id: me.id,
    displayName: me.displayName,
    username: me.username,
    bio: null,
    avatarUrl: null,
    bannerUrl: null,
    isDeleted: false,
    createdAt: me.createdAt,
    followersCount: 0,
    followingCount,
    viewerFollows: false,
  });

describe("The wall's 'Siguiendo' filter", () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeIntersectionObserver();
  });

  it("switches between 'Todos' and 'Siguiendo', paging the followed posts with their cursor and marking followers-only ones", async () => {
    const everyone = buildPost({ content: 'Post de todos' });
    const shared = buildPost({ content: 'Post solo seguidores', author: luis, visibility: 'followers' });
    const older = buildPost({ content: 'Post público de Luis', author: luis });
    const fetchMock = stubApi({
      'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([everyone])),
      [FOLLOWING]: () => jsonResponse(200, feedPage([shared], 'f1')),
      [`${FOLLOWING}&cursor=f1`]: () => jsonResponse(200, feedPage([older])),
    });
    const user = userEvent.setup();
    renderWall();
    await screen.findByText('Post de todos');
    const all = screen.getByRole('button', { name: 'Todos' });
    const following = screen.getByRole('button', { name: 'Siguiendo' });
    expect(all.getAttribute('aria-pressed')).toBe('true');
    expect(following.getAttribute('aria-pressed')).toBe('false');

    await user.click(following);
    expect(following.getAttribute('aria-pressed')).toBe('true');
    await screen.findByText('Post solo seguidores');
    expect(postTexts()).toEqual(['Post solo seguidores']);
    const card = within(screen.getByText('Post solo seguidores').closest('article')!);
    expect(card.getByText('Seguidores')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cargar más publicaciones' }));
    await screen.findByText('Post público de Luis');
    expect(within(screen.getByText('Post público de Luis').closest('article')!).queryByText('Seguidores')).toBeNull();

    await user.click(all);
    await screen.findByText('Post de todos');
    expect(postTexts()).toEqual(['Post de todos']);
    expect(requestsOf(fetchMock).filter((r) => r.startsWith('GET /api/posts'))).toEqual([
      'GET /api/posts?sort=activity',
      FOLLOWING,
      `${FOLLOWING}&cursor=f1`,
      'GET /api/posts?sort=activity',
    ]);
  });

  it('is offered to signed-in fans only', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    const fetchMock = stubApi({ 'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post A' })])) });
    renderWall('/wall?ver=siguiendo');
    await screen.findByText('Post A');
    expect(screen.queryByRole('button', { name: 'Siguiendo' })).toBeNull();
    expect(requestsOf(fetchMock).some((r) => r.includes('following'))).toBe(false);
  });

  it('says when the fan follows nobody yet, or when the people they follow have not posted', async () => {
    stubApi({ [FOLLOWING]: () => jsonResponse(200, feedPage([])), [`GET /api/profiles/${me.id}`]: myProfile(0) });
    const { unmount } = renderWall('/wall?ver=siguiendo');
    expect(await screen.findByText(FOLLOWS_NOBODY.title)).toBeTruthy();
    expect(screen.getByText(FOLLOWS_NOBODY.body)).toBeTruthy();
    unmount();

    stubApi({ [FOLLOWING]: () => jsonResponse(200, feedPage([])), [`GET /api/profiles/${me.id}`]: myProfile(3) });
    renderWall('/wall?ver=siguiendo');
    expect(await screen.findByText(FOLLOWED_SILENT.title)).toBeTruthy();
  });

  it('counts live only the new posts of authors it shows, never the rest of the wall', async () => {
    const live = spyLive();
    let calls = 0;
    const old = buildPost({ content: 'Post A', author: luis });
    const fresh = buildPost({ content: 'Post nuevo de Luis', author: luis });
    stubApi({ [FOLLOWING]: () => jsonResponse(200, feedPage(++calls === 1 ? [old] : [fresh, old])) });
    const user = userEvent.setup();
    renderWall('/wall?ver=siguiendo');
    await screen.findByText('Post A');
    expect(live.topics()).toContain('feed');

    live.deliver({ type: 'feed-post', topic: 'feed', postId: buildPost().id, authorId: buildAuthor().id });
    expect(screen.queryByRole('button', { name: /publicaci(ón|ones) nuevas?/ })).toBeNull();
    live.deliver({ type: 'feed-post', topic: 'feed', postId: fresh.id, authorId: luis.id });
    await user.click(screen.getByRole('button', { name: /1 publicación nueva/ }));
    await waitFor(() => expect(postTexts()).toEqual(['Post nuevo de Luis', 'Post A']));
  });
});
