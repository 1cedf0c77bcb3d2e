import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { VideoUploadView } from '@tribuna/contracts/api/wall';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { useSessionStore } from '../../lib/session/sessionStore';
import { requestsOf, stubApi } from '../../test/apiStub';
import { installFakeIntersectionObserver } from '../../test/fakeIntersectionObserver';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildAuthor, buildPost, buildVideoMedia, buildVideoUpload, feedPage } from '../../test/wallFixtures';
import { PostFeed } from './Feed';
import type { FeedFilters } from './api';
import { useVideoUploadsStore } from './videoUploadsStore';

const me = buildProfile({ id: '30000000-0000-4000-8000-000000000007', displayName: 'Autora Activa' });
const topic = `user:${me.id}`;
const processingCards = () => screen.queryAllByRole('article', { name: 'Tu video en proceso' });
const videoPost = (content: string, createdAt = new Date().toISOString()) =>
  buildPost({ content, createdAt, author: buildAuthor({ id: me.id, displayName: me.displayName }), media: [buildVideoMedia()] });

function renderFeed(filters: FeedFilters, list: () => VideoUploadView[], extra: Record<string, () => Response> = {}) {
  const fetchMock = stubApi({
    'GET /api/posts?sort=activity': () => jsonResponse(200, feedPage([buildPost({ content: 'Post viejo' })])),
    'GET /api/me/video-uploads': () => jsonResponse(200, { uploads: list() }),
    ...extra,
  });
  render(
    <MemoryRouter>
      <PostFeed filters={filters} />
    </MemoryRouter>,
  );
  return fetchMock;
}

describe("the author's clips being processed", () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    useVideoUploadsStore.getState().reset(null);
    installFakeIntersectionObserver();
  });

  it("shows 'Procesando video…' from the server's list on load, and 'No pudimos procesar el video' with Descartar when it fails", async () => {
    const live = spyLive();
    const upload = buildVideoUpload({ content: 'Clip que falla' });
    renderFeed({ sort: 'activity' }, () => [upload]);
    const card = await screen.findByRole('article', { name: 'Tu video en proceso' });
    const status = within(card).getByRole('status');
    expect(status.textContent).toBe(WALL_MESSAGES.videoProcessing);
    expect(within(card).getByText('Clip que falla')).toBeTruthy();
    expect(within(card).getByText('Autora Activa')).toBeTruthy();
    await screen.findByText('Post viejo');
    expect(screen.getAllByRole('article')[0]).toBe(card);
    expect(live.topics()).toContain(topic);

    live.deliver({ type: 'video-upload', topic, uploadId: upload.id, status: 'failed', postId: null });
    const failed = screen.getByRole('article', { name: 'Tu video no se publicó' });
    // The same live region, so the change is announced.
    expect(within(failed).getByRole('status')).toBe(status);
    expect(status.textContent).toBe(WALL_MESSAGES.videoFailed);
    await userEvent.setup().click(within(failed).getByRole('button', { name: 'Descartar' }));
    expect(screen.queryByRole('article', { name: 'Tu video no se publicó' })).toBeNull();
    expect(screen.getByText('Post viejo')).toBeTruthy();
  });

  it("replaces the card with the post when it is published (on the author's own profile too)", async () => {
    const live = spyLive();
    const upload = buildVideoUpload({ content: 'Clip listo' });
    const post = videoPost('Clip listo');
    const fetchMock = renderFeed({ userId: me.id, sort: 'recent' }, () => [upload], {
      [`GET /api/posts?sort=recent&userId=${me.id}`]: () => jsonResponse(200, feedPage([buildPost({ content: 'Post viejo' })])),
      [`GET /api/posts/${post.id}`]: () => jsonResponse(200, post),
    });
    await screen.findByText('Post viejo');
    expect(processingCards()).toHaveLength(1);

    live.deliver({ type: 'video-upload', topic, uploadId: upload.id, status: 'published', postId: post.id });
    const article = await screen.findByRole('article', { name: 'Publicación de Autora Activa' });
    expect(processingCards()).toHaveLength(0);
    expect(screen.getAllByRole('article')[0]).toBe(article);
    expect(within(article).getByText('Clip listo')).toBeTruthy();
    expect(article.querySelector('video')).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`GET /api/posts/${post.id}`);
  });

  it("shows nothing of it on somebody else's profile", async () => {
    const live = spyLive();
    const fetchMock = renderFeed({ userId: '30000000-0000-4000-8000-000000000099' }, () => [buildVideoUpload()], {
      'GET /api/posts?userId=30000000-0000-4000-8000-000000000099': () => jsonResponse(200, feedPage([buildPost({ content: 'Post ajeno' })])),
    });
    await screen.findByText('Post ajeno');
    expect(processingCards()).toHaveLength(0);
    expect(requestsOf(fetchMock)).not.toContain('GET /api/me/video-uploads');
    expect(live.topics()).not.toContain(topic);
  });

  it('asks nothing for a visitor', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    const live = spyLive();
    const fetchMock = renderFeed({ sort: 'activity' }, () => [buildVideoUpload()]);
    await screen.findByText('Post viejo');
    expect(processingCards()).toHaveLength(0);
    expect(requestsOf(fetchMock)).toEqual(['GET /api/posts?sort=activity']);
    expect(live.topics()).toEqual(['feed']);
  });

  it('after a dropped connection, a clip that left the list is its post if there is one, failed otherwise', async () => {
    const live = spyLive();
    const start = Date.now();
    const published = buildVideoUpload({ content: 'Clip publicado', createdAt: new Date(start - 60_000).toISOString() });
    const lost = buildVideoUpload({ content: 'Clip perdido', createdAt: new Date(start - 30_000).toISOString() });
    const still = buildVideoUpload({ content: 'Clip en curso', createdAt: new Date(start - 10_000).toISOString() });
    let list = [still, lost, published];
    const post = videoPost('Clip publicado', new Date(start - 5_000).toISOString());
    // An older post with the same text is not the clip's post.
    const older = videoPost('Clip perdido', new Date(start - 120_000).toISOString());
    renderFeed({ sort: 'activity' }, () => list, {
      [`GET /api/posts?sort=recent&userId=${me.id}`]: () => jsonResponse(200, feedPage([post, older])),
    });
    await screen.findByText('Post viejo');
    expect(processingCards()).toHaveLength(3);

    list = [still];
    await live.resync(topic);
    await screen.findByRole('article', { name: 'Publicación de Autora Activa' });
    const articles = screen.getAllByRole('article');
    expect(articles.map((article) => article.getAttribute('aria-label'))).toEqual([
      'Tu video en proceso',
      'Tu video no se publicó',
      'Publicación de Autora Activa',
      expect.stringMatching(/^Publicación de/),
    ]);
    expect(within(articles[0]!).getByText('Clip en curso')).toBeTruthy();
    expect(within(articles[1]!).getByText('Clip perdido')).toBeTruthy();
    expect(within(articles[2]!).getByText('Clip publicado')).toBeTruthy();
  });

  it('a late list does not bring back a clip already settled, and a failure from another tab is still told', async () => {
    const live = spyLive();
    const upload = buildVideoUpload({ content: 'Clip de otra pestaña' });
    let list: VideoUploadView[] = [];
    renderFeed({ sort: 'activity' }, () => list);
    await screen.findByText('Post viejo');
    expect(processingCards()).toHaveLength(0);

    live.deliver({ type: 'video-upload', topic, uploadId: upload.id, status: 'failed', postId: null });
    expect(within(screen.getByRole('article', { name: 'Tu video no se publicó' })).getByRole('status').textContent).toBe(WALL_MESSAGES.videoFailed);
    list = [upload];
    await live.resync(topic);
    expect(processingCards()).toHaveLength(0);
    expect(screen.getAllByRole('article', { name: 'Tu video no se publicó' })).toHaveLength(1);
  });
});
