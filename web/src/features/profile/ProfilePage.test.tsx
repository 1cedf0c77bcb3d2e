import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { Profile } from '@tribuna/contracts/api/me';
import type { PublicProfile } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { PUSH_KIND_DEFAULTS } from '@tribuna/contracts/pushRules';
import { requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { buildPost, feedPage } from '../../test/wallFixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { buildGroup, buildProfileComment, buildPublicProfile, buildVote } from './profileFixtures';
import { ProfileRoute } from '../../app/ProfileRoute';

const me: Profile = buildProfile({ id: '40000000-0000-4000-8000-00000000a001', displayName: 'Ana López', username: 'ana' });
const mine = buildPublicProfile({ id: me.id, displayName: 'Ana López', username: 'ana', createdAt: '2026-11-10T12:00:00.000Z' });
const other = buildPublicProfile({ id: '40000000-0000-4000-8000-00000000b002', displayName: 'Luis Pérez', username: 'luis', bio: null });
const serverError = () => jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Algo falló' });
const bare500 = () => new Response('', { status: 500 });

function profileApi(profile: PublicProfile, extra: Record<string, Handler> = {}) {
  const base = `/api/profiles/${profile.id}`;
  return stubApi({
    [`GET ${base}`]: () => jsonResponse(200, profile),
    [`GET ${base}/stats`]: () => jsonResponse(200, { votes: 12, posts: 3, comments: 1234 }),
    [`GET ${base}/votes`]: () => jsonResponse(200, { items: [] }),
    'GET /api/auth/factors': () => jsonResponse(200, { factors: [] }),
    'GET /api/me/muted': () => jsonResponse(200, { items: [], nextCursor: null }),
    'GET /api/me/blocked': () => jsonResponse(200, { items: [], nextCursor: null }),
    'GET /api/me/push': () => jsonResponse(200, { devices: [], preferences: PUSH_KIND_DEFAULTS }),
    'GET /api/push/config': () => jsonResponse(200, { enabled: true, publicKey: 'BKey' }),
    ...extra,
  });
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<h1>Inicio</h1>} />
        <Route path="/login" element={<h1>Login</h1>} />
        <Route path="/perfil" element={<ProfileRoute />} />
        <Route path="/perfil/:userId" element={<ProfileRoute />} />
      </Routes>
    </MemoryRouter>,
  );
}

const counter = (label: string) => screen.getByText(label, { selector: 'dt' }).parentElement?.querySelector('dd')?.textContent;

describe('ProfilePage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('shows the own profile: header, counters, actions, the voting history and the security settings', async () => {
    const fetchMock = profileApi(mine, {
      [`GET /api/profiles/${me.id}/votes`]: () =>
        jsonResponse(200, {
          items: [
            buildVote({ pollTitle: 'Gala 1', pollStatus: 'active', contestantName: 'Carla Ruiz' }),
            buildVote({ pollTitle: 'Gala 2', pollStatus: 'closed', contestantName: null, contestantPhotoUrl: null, optionText: 'Nadie' }),
            buildVote({ pollTitle: 'Gala 3', pollStatus: 'draft', contestantName: null, optionText: null, optionRemoved: true }),
          ],
        }),
    });
    renderAt('/perfil');
    expect(screen.getByRole('status').textContent).toContain('Cargando perfil');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ana López' })).toBeTruthy();
    expect(screen.getByText('@ana')).toBeTruthy();
    expect(screen.getByText('Fan de La Casa desde la primera temporada')).toBeTruthy();
    expect(screen.getByText('Miembro desde noviembre 2026')).toBeTruthy();
    expect(screen.getByTestId('profile-banner-gradient')).toBeTruthy();
    await waitFor(() => expect(counter('Votaciones')).toBe('12'));
    expect(counter('Posts')).toBe('3');
    expect(counter('Comentarios')).toBe('1,234');
    expect(screen.getByRole('button', { name: 'Editar Perfil' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Eliminar cuenta' })).toBeTruthy();

    const history = await screen.findByRole('list', { name: 'Historial de votaciones' });
    const rows = within(history).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('p')?.textContent)).toEqual(['Gala 1', 'Gala 2', 'Gala 3']);
    expect(within(rows[0]!).getByText('Carla Ruiz')).toBeTruthy();
    expect(within(rows[0]!).getByText('Activa')).toBeTruthy();
    expect(rows[0]!.querySelector('img')?.getAttribute('src')).toBe('/media/carla.webp');
    expect(within(rows[1]!).getByText('Nadie')).toBeTruthy();
    expect(within(rows[1]!).getByText('Cerrada')).toBeTruthy();
    expect(within(rows[2]!).getByText(PROFILE_MESSAGES.removedOption)).toBeTruthy();
    expect(within(rows[2]!).getByText('Borrador')).toBeTruthy();
    expect(rows[0]!.querySelector('time')?.textContent).toMatch(/2025/);

    expect(screen.getByRole('heading', { level: 2, name: 'Configuración' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: 'Seguridad' })).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Verificación en dos pasos' })).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain('GET /api/auth/factors');
  });

  it("shows another user's profile without actions, settings or their voting history", async () => {
    const fetchMock = profileApi(other);
    renderAt(`/perfil/${other.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luis Pérez' })).toBeTruthy();
    expect(screen.getByText(PROFILE_MESSAGES.votingPrivate)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar Perfil' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Eliminar cuenta' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Seguridad' })).toBeNull();
    await waitFor(() => expect(counter('Votaciones')).toBe('12'));
    expect(requestsOf(fetchMock)).not.toContain(`GET /api/profiles/${other.id}/votes`);
    expect(requestsOf(fetchMock)).not.toContain('GET /api/auth/factors');
  });

  it("treats /perfil/{own id} as the own profile, and a visitor sees anybody's as public", async () => {
    profileApi(mine);
    const { unmount } = renderAt(`/perfil/${me.id}`);
    expect(await screen.findByRole('button', { name: 'Editar Perfil' })).toBeTruthy();
    unmount();

    useSessionStore.setState({ user: null, status: 'ready' });
    renderAt(`/perfil/${me.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Ana López' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Editar Perfil' })).toBeNull();
    expect(screen.getByText(PROFILE_MESSAGES.votingPrivate)).toBeTruthy();
  });

  it('sends a visitor on /perfil to /login', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    stubApi({});
    renderAt('/perfil');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeTruthy();
  });

  it("says 'Perfil no encontrado' with a way home for an unknown or malformed id", async () => {
    stubApi({});
    const { unmount } = renderAt(`/perfil/${other.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: PROFILE_MESSAGES.notFound })).toBeTruthy();
    expect(screen.getByRole('link', { name: PROFILE_MESSAGES.backHome }).getAttribute('href')).toBe('/');
    unmount();

    stubApi({ 'GET /api/profiles/123': () => jsonResponse(400, { statusCode: 400, error: 'Bad Request', message: 'params/userId must match format "uuid"' }) });
    renderAt('/perfil/123');
    expect(await screen.findByRole('heading', { level: 1, name: PROFILE_MESSAGES.notFound })).toBeTruthy();
  });

  it('falls back to zero counters when the stats fail to load', async () => {
    const fetchMock = profileApi(other, { [`GET /api/profiles/${other.id}/stats`]: serverError });
    renderAt(`/perfil/${other.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Luis Pérez' })).toBeTruthy();
    await waitFor(() => expect(requestsOf(fetchMock)).toContain(`GET /api/profiles/${other.id}/stats`));
    expect(counter('Votaciones')).toBe('0');
    expect(counter('Posts')).toBe('0');
    expect(counter('Comentarios')).toBe('0');
  });

  it('shows a deleted account as Usuario eliminado, and the name fallbacks', async () => {
    const deleted = buildPublicProfile({ displayName: 'Usuario eliminado', username: null, bio: null, isDeleted: true });
    profileApi(deleted);
    const { unmount } = renderAt(`/perfil/${deleted.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Usuario eliminado' })).toBeTruthy();
    unmount();

    const nameless = buildPublicProfile({ displayName: null, username: null });
    profileApi(nameless);
    renderAt(`/perfil/${nameless.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Usuario' })).toBeTruthy();
  });

  it('shows the voting history error in a box with Reintentar, and the empty state', async () => {
    let calls = 0;
    profileApi(mine, {
      [`GET /api/profiles/${me.id}/votes`]: () => (++calls === 1 ? bare500() : jsonResponse(200, { items: [] })),
    });
    const user = userEvent.setup();
    renderAt('/perfil');
    expect((await screen.findByRole('alert')).textContent).toContain(PROFILE_MESSAGES.votesLoadFailed);
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(PROFILE_MESSAGES.votesEmpty)).toBeTruthy();
  });

  it('moves between tabs with the arrow keys, loading each panel once', async () => {
    const fetchMock = profileApi(other, {
      [`GET /api/posts?sort=recent&userId=${other.id}`]: () => jsonResponse(200, feedPage([])),
      [`GET /api/profiles/${other.id}/comments`]: () => jsonResponse(200, { items: [], nextCursor: null }),
      [`GET /api/profiles/${other.id}/groups`]: () => jsonResponse(200, { items: [] }),
    });
    const user = userEvent.setup();
    renderAt(`/perfil/${other.id}`);
    const votes = await screen.findByRole('tab', { name: 'Votaciones' });
    expect(votes.getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1]);

    votes.focus();
    await user.keyboard('{ArrowRight}');
    const posts = screen.getByRole('tab', { name: 'Posts' });
    expect(document.activeElement).toBe(posts);
    expect(posts.getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText(PROFILE_MESSAGES.postsEmptyOther)).toBeTruthy();

    await user.keyboard('{ArrowRight}');
    expect(await screen.findByText(PROFILE_MESSAGES.commentsEmptyOther)).toBeTruthy();
    await user.keyboard('{End}');
    expect(await screen.findByText(PROFILE_MESSAGES.groupsEmptyOther)).toBeTruthy();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Votaciones' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText(PROFILE_MESSAGES.votingPrivate)).toBeTruthy();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Grupos' }).getAttribute('aria-selected')).toBe('true');

    const panel = screen.getByRole('tabpanel', { name: 'Grupos' });
    expect(panel.textContent).toContain(PROFILE_MESSAGES.groupsEmptyOther);
    expect(requestsOf(fetchMock).filter((r) => r.includes('/groups'))).toHaveLength(1);
  });

  it('lists the posts with the profile badges and pages with Cargar más', async () => {
    const pinned = buildPost({
      content: 'Post fijado',
      author: { id: me.id, displayName: 'Ana López', username: 'ana', avatarUrl: null },
      isPinned: true,
      groupName: 'Fans de Carla',
      visibility: 'group',
    });
    const edited = buildPost({ content: 'Post editado', visibility: 'followers', editedAt: new Date().toISOString() });
    const later = buildPost({ content: 'Post viejo' });
    const fetchMock = profileApi(mine, {
      [`GET /api/posts?sort=recent&userId=${me.id}`]: () => jsonResponse(200, feedPage([pinned, edited], 'c1')),
      [`GET /api/posts?sort=recent&userId=${me.id}&cursor=c1`]: () => jsonResponse(200, feedPage([later])),
    });
    const user = userEvent.setup();
    renderAt('/perfil');
    await user.click(await screen.findByRole('tab', { name: 'Posts' }));
    const first = await screen.findByText('Post fijado');
    const card = within(first.closest('article')!);
    expect(card.getByText('En Fans de Carla')).toBeTruthy();
    expect(card.getByText('Fijado')).toBeTruthy();
    expect(card.getByText('Grupo')).toBeTruthy();
    expect(card.getByRole('link', { name: 'Ana López' }).getAttribute('href')).toBe(`/perfil/${me.id}`);
    const second = within(screen.getByText('Post editado').closest('article')!);
    expect(second.getByText('Seguidores')).toBeTruthy();
    expect(second.getByText(/Editado/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('Post viejo')).toBeTruthy();
    expect(within(screen.getByText('Post viejo').closest('article')!).getByText('Público')).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`GET /api/posts?sort=recent&userId=${me.id}&cursor=c1`);
  });

  it('shows the posts error with Reintentar and the own empty text', async () => {
    let calls = 0;
    profileApi(mine, { [`GET /api/posts?sort=recent&userId=${me.id}`]: () => (++calls === 1 ? serverError() : jsonResponse(200, feedPage([]))) });
    const user = userEvent.setup();
    renderAt('/perfil');
    await user.click(await screen.findByRole('tab', { name: 'Posts' }));
    expect(await screen.findByText(PROFILE_MESSAGES.postsLoadFailed)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(PROFILE_MESSAGES.postsEmptyOwn)).toBeTruthy();
  });

  it('lists the comments under a quote of their post, with Cargar más', async () => {
    const first = buildProfileComment({ content: 'Comentario uno' });
    const second = buildProfileComment({ content: 'Comentario dos' });
    const fetchMock = profileApi(mine, {
      [`GET /api/profiles/${me.id}/comments`]: () => jsonResponse(200, { items: [first], nextCursor: 'k1' }),
      [`GET /api/profiles/${me.id}/comments?cursor=k1`]: () => jsonResponse(200, { items: [first, second], nextCursor: null }),
    });
    const user = userEvent.setup();
    renderAt('/perfil');
    await user.click(await screen.findByRole('tab', { name: 'Comentarios' }));
    expect(await screen.findByText('Comentario uno')).toBeTruthy();
    const item = within(screen.getByText('Comentario uno').closest('article')!);
    expect(item.getByText('Qué gala la de anoche')).toBeTruthy();
    expect(item.getByRole('link', { name: 'Luis Pérez' }).getAttribute('href')).toBe(`/perfil/${first.post.author.id}`);

    await user.click(screen.getByRole('button', { name: 'Cargar más' }));
    expect(await screen.findByText('Comentario dos')).toBeTruthy();
    expect(screen.getAllByText('Comentario uno')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(requestsOf(fetchMock)).toContain(`GET /api/profiles/${me.id}/comments?cursor=k1`);
  });

  it('shows the comments and groups errors with Reintentar, and the own empty texts', async () => {
    let comments = 0;
    let groups = 0;
    profileApi(mine, {
      [`GET /api/profiles/${me.id}/comments`]: () => (++comments === 1 ? serverError() : jsonResponse(200, { items: [], nextCursor: null })),
      [`GET /api/profiles/${me.id}/groups`]: () => (++groups === 1 ? serverError() : jsonResponse(200, { items: [] })),
    });
    const user = userEvent.setup();
    renderAt('/perfil');
    await user.click(await screen.findByRole('tab', { name: 'Comentarios' }));
    expect(await screen.findByText(PROFILE_MESSAGES.commentsLoadFailed)).toBeTruthy();
    await user.click(within(screen.getByRole('tabpanel', { name: 'Comentarios' })).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(PROFILE_MESSAGES.commentsEmptyOwn)).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: 'Grupos' }));
    expect(await screen.findByText(PROFILE_MESSAGES.groupsLoadFailed)).toBeTruthy();
    await user.click(within(screen.getByRole('tabpanel', { name: 'Grupos' })).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(PROFILE_MESSAGES.groupsEmptyOwn)).toBeTruthy();
  });

  it('shows the groups as cards with role, privacy and membership date', async () => {
    profileApi(mine, {
      [`GET /api/profiles/${me.id}/groups`]: () =>
        jsonResponse(200, {
          items: [
            buildGroup({ name: 'Fans de Carla', role: 'admin', privacy: 'private', coverUrl: '/media/cover.webp', joinedAt: '2025-02-20T12:00:00.000Z' }),
            buildGroup({ name: 'Debates', role: 'moderator', description: null }),
          ],
        }),
    });
    const user = userEvent.setup();
    renderAt('/perfil');
    await user.click(await screen.findByRole('tab', { name: 'Grupos' }));
    const card = within(await screen.findByRole('article', { name: 'Fans de Carla' }));
    expect(card.getByRole('heading', { name: 'Fans de Carla' })).toBeTruthy();
    expect(card.getByText('Todo sobre Carla')).toBeTruthy();
    expect(card.getByText('Admin')).toBeTruthy();
    expect(card.getByText('Privado')).toBeTruthy();
    expect(card.getByText('Miembro desde febrero 2025')).toBeTruthy();
    const debates = within(screen.getByRole('article', { name: 'Debates' }));
    expect(debates.getByText('Moderador')).toBeTruthy();
    expect(debates.getByText('Público')).toBeTruthy();
  });
});
