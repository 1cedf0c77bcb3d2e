import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { PostView } from '@tribuna/contracts/api/wall';
import { MODERATION_MESSAGES, SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { ReportHost } from '../../app/ReportHost';
import { useReportStore } from '../../lib/reports';
import { useSessionStore } from '../../lib/session/sessionStore';
import { pinClock } from '../../test/clock';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { installFakeIntersectionObserver } from '../../test/fakeIntersectionObserver';
import { FakeXhr, installFakeXhr } from '../../test/fakeXhr';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { buildAuthor, buildComment, buildPost, feedPage, WALL_NOW } from '../../test/wallFixtures';
import { Composer } from './Composer';
import { PostFeed } from './Feed';

const me = buildProfile({ id: '30000000-0000-4000-8000-0000000000a1', displayName: 'Ana López' });
const mine = (overrides: Partial<PostView> = {}) => buildPost({ author: buildAuthor({ id: me.id, displayName: me.displayName }), ...overrides });
const SILENCED_UNTIL = new Date(WALL_NOW + 3_600_000).toISOString();
const silencedBody = { statusCode: 403, error: 'Forbidden', message: MODERATION_MESSAGES.silenced(SILENCED_UNTIL) };
const created = () => jsonResponse(201, { id: '30000000-0000-4000-8000-0000000000f1', message: MODERATION_MESSAGES.reported });

async function renderPost(post: PostView, handlers: Record<string, Handler> = {}) {
  const fetchMock = stubApi({ 'GET /api/posts?userId=u': () => jsonResponse(200, feedPage([post])), ...handlers });
  render(
    <MemoryRouter>
      <PostFeed filters={{ userId: 'u' }} />
      <ReportHost />
    </MemoryRouter>,
  );
  await screen.findByRole('article', { name: /^Publicación de/ });
  return fetchMock;
}

const menuItems = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

describe('Reportar on the wall', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    useReportStore.setState({ subject: null, reported: {} });
    installFakeIntersectionObserver();
    installFakeXhr();
  });

  it("reports someone else's post from its menu; then the post offers it no more", async () => {
    const post = buildPost();
    const fetchMock = await renderPost(post, { 'POST /api/reports': created });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    expect(menuItems()).toEqual([SAFETY_UI.report]);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.report }));

    const dialog = await screen.findByRole('dialog', { name: SAFETY_UI.report });
    expect(within(dialog).getByText('Publicación de Luis Pérez')).toBeTruthy();
    await user.click(within(dialog).getByRole('radio', { name: 'Spam' }));
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    await within(dialog).findByText(MODERATION_MESSAGES.reported);
    expect(bodyOf(fetchMock, 'POST /api/reports')).toEqual({ targetType: 'post', targetId: post.id, reason: 'spam' });
    await user.click(within(dialog).getByRole('button', { name: 'Listo' }));

    expect(screen.queryByRole('dialog')).toBeNull();
    // 'Reportar' was its only item: the menu is gone.
    expect(screen.queryByRole('button', { name: 'Opciones de la publicación' })).toBeNull();
  });

  it('never offers Reportar on the own post or comment; reports someone else’s comment', async () => {
    const post = mine({ commentCount: 2 });
    const own = buildComment(post.id, { content: 'Mío', author: buildAuthor({ id: me.id }) });
    const other = buildComment(post.id, { content: 'Ajeno' });
    const fetchMock = await renderPost(post, {
      [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [own, other], commentCount: 2 }),
      'POST /api/reports': created,
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Opciones de la publicación' }));
    expect(menuItems()).toEqual(['Editar', 'Eliminar']);
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('button', { name: '2 comentarios' }));
    await screen.findByText('Mío');
    const [ownItem, otherItem] = screen.getAllByRole('article', { name: /^Comentario de/ });
    await user.click(within(ownItem!).getByRole('button', { name: 'Opciones del comentario' }));
    expect(menuItems()).toEqual(['Editar', 'Eliminar']);
    await user.keyboard('{Escape}');

    await user.click(within(otherItem!).getByRole('button', { name: 'Opciones del comentario' }));
    expect(menuItems()).toEqual([SAFETY_UI.report]);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.report }));
    const dialog = await screen.findByRole('dialog', { name: SAFETY_UI.report });
    expect(within(dialog).getByText('Comentario de Marta')).toBeTruthy();
    await user.click(within(dialog).getByRole('radio', { name: 'Acoso o insultos' }));
    await user.type(within(dialog).getByRole('textbox'), 'Me insulta');
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    await within(dialog).findByText(MODERATION_MESSAGES.reported);
    expect(bodyOf(fetchMock, 'POST /api/reports')).toEqual({ targetType: 'comment', targetId: other.id, reason: 'harassment', comment: 'Me insulta' });
    await user.keyboard('{Escape}');
    expect(within(otherItem!).queryByRole('button', { name: 'Opciones del comentario' })).toBeNull();
  });
});

describe('Oculto por moderación', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    installFakeIntersectionObserver();
  });

  it("labels the author's own hidden post and comment, and nothing else", async () => {
    const post = mine({ hiddenByModeration: true, commentCount: 2 });
    const hidden = buildComment(post.id, { content: 'Oculto', author: buildAuthor({ id: me.id }), hiddenByModeration: true });
    const shown = buildComment(post.id, { content: 'Visible' });
    await renderPost(post, { [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [hidden, shown], commentCount: 2 }) });
    const article = screen.getByRole('article', { name: /^Publicación de/ });
    await userEvent.setup().click(within(article).getByRole('button', { name: '2 comentarios' }));
    await screen.findByText('Visible');
    const [hiddenItem, shownItem] = screen.getAllByRole('article', { name: /^Comentario de/ });
    expect(within(hiddenItem!).getByText(MODERATION_MESSAGES.hiddenByModeration)).toBeTruthy();
    expect(within(shownItem!).queryByText(MODERATION_MESSAGES.hiddenByModeration)).toBeNull();
    // The post's own label, above its text.
    expect(screen.getAllByText(MODERATION_MESSAGES.hiddenByModeration)).toHaveLength(2);
    expect(screen.getByText('Qué gala la de anoche').previousElementSibling?.textContent).toBe(MODERATION_MESSAGES.hiddenByModeration);
  });

  it('shows no label on a post without the flag', async () => {
    await renderPost(mine());
    expect(screen.queryByText(MODERATION_MESSAGES.hiddenByModeration)).toBeNull();
  });
});

describe('A silenced fan', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    installFakeIntersectionObserver();
    installFakeXhr();
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it("shows the server's silence message when a reaction is refused, and reads the profile for the banner", async () => {
    const post = buildPost();
    const fetchMock = await renderPost(post, {
      [`POST /api/posts/${post.id}/reactions`]: () => jsonResponse(403, silencedBody),
      'GET /api/me': () => jsonResponse(200, { ...me, silencedUntil: SILENCED_UNTIL }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reaccionar' }));
    await user.click(screen.getByRole('button', { name: 'Me gusta' }));
    expect((await screen.findByRole('alert')).textContent).toBe(silencedBody.message);
    await waitFor(() => expect(useSessionStore.getState().user?.silencedUntil).toBe(SILENCED_UNTIL));
    expect(requestsOf(fetchMock)).toContain('GET /api/me');
  });

  it('reads nothing more on another refusal', async () => {
    const post = buildPost();
    const fetchMock = await renderPost(post, {
      [`POST /api/posts/${post.id}/reactions`]: () => jsonResponse(403, { statusCode: 403, error: 'Forbidden', message: MODERATION_MESSAGES.blockedUser }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reaccionar' }));
    await user.click(screen.getByRole('button', { name: 'Me gusta' }));
    expect((await screen.findByRole('alert')).textContent).toBe(MODERATION_MESSAGES.blockedUser);
    expect(requestsOf(fetchMock)).not.toContain('GET /api/me');
  });

  it("shows the server's silence message when a comment or a like is refused", async () => {
    const post = buildPost({ commentCount: 1 });
    const comment = buildComment(post.id, { content: 'Hola' });
    await renderPost(post, {
      [`GET /api/posts/${post.id}/comments`]: () => jsonResponse(200, { comments: [comment], commentCount: 1 }),
      [`POST /api/comments/${comment.id}/reactions`]: () => jsonResponse(403, silencedBody),
      'GET /api/me': () => jsonResponse(200, { ...me, silencedUntil: SILENCED_UNTIL }),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: '1 comentario' }));
    const item = await screen.findByRole('article', { name: /^Comentario de/ });
    await user.click(within(item).getByRole('button', { name: 'Me gusta' }));
    expect((await within(item).findByRole('alert')).textContent).toBe(silencedBody.message);

    const form = screen.getByRole('form', { name: 'Comentar' });
    await user.type(within(form).getByRole('textbox'), 'Sigo aquí');
    await user.click(within(form).getByRole('button', { name: 'Enviar' }));
    await act(async () => FakeXhr.last.respond(403, silencedBody));
    expect(within(form).getByRole('alert').textContent).toBe(silencedBody.message);
  });
});

describe('The silence banner', () => {
  beforeEach(() => {
    pinClock(WALL_NOW);
    installFakeXhr();
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  function renderComposer() {
    render(
      <MemoryRouter>
        <Composer onCreated={() => {}} />
      </MemoryRouter>,
    );
  }

  it('tells a silenced fan until when, above the composer', () => {
    useSessionStore.setState({ user: { ...me, silencedUntil: SILENCED_UNTIL }, status: 'ready' });
    stubApi({});
    renderComposer();
    const banner = screen.getByRole('status');
    expect(banner.textContent).toBe(MODERATION_MESSAGES.silenced(SILENCED_UNTIL));
    expect(banner.textContent).toContain('2 de marzo de 2026');
    expect(banner.nextElementSibling?.getAttribute('aria-label')).toBe('Nueva publicación');
  });

  it('shows nothing once the silence is over, or without one', () => {
    useSessionStore.setState({ user: { ...me, silencedUntil: new Date(WALL_NOW - 1).toISOString() }, status: 'ready' });
    stubApi({});
    renderComposer();
    expect(screen.queryByText(/silenciada/)).toBeNull();
    useSessionStore.setState({ user: { ...me, silencedUntil: null }, status: 'ready' });
    expect(screen.queryByText(/silenciada/)).toBeNull();
  });

  it("appears after a refused post, with the server's message under the composer", async () => {
    useSessionStore.setState({ user: me, status: 'ready' });
    const fetchMock = stubApi({ 'GET /api/me': () => jsonResponse(200, { ...me, silencedUntil: SILENCED_UNTIL }) });
    renderComposer();
    fireEvent.change(screen.getByPlaceholderText('¿Qué está pasando?'), { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: 'Publicar' }));
    await act(async () => FakeXhr.last.respond(403, silencedBody));
    expect(screen.getByRole('alert').textContent).toBe(silencedBody.message);
    expect((await screen.findByRole('status')).textContent).toBe(MODERATION_MESSAGES.silenced(SILENCED_UNTIL));
    expect(requestsOf(fetchMock)).toEqual(['GET /api/me']);
  });
});
