import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ModerationQueue } from '@tribuna/contracts/api/moderation';
import { MODERATION_MESSAGES, MODERATION_QUEUE_TEXTS, formatSilencedUntil, type ModerationAction } from '@tribuna/contracts/moderationRules';
import { useSessionStore } from '../../../lib/session/sessionStore';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { buildProfile, jsonResponse } from '../../../test/fixtures';
import { buildPost, buildVideoMedia } from '../../../test/wallFixtures';
import { apiError, bareFailure } from '../adminFixtures';
import { actionResult, buildCommentItem, buildModeratedAuthor, buildPostItem, buildProfileItem, queuePage } from './moderationFixtures';
import { ModerationPage } from './ModerationPage';

const ACTIONS = 'POST /api/moderation/actions';

function Where() {
  const location = useLocation();
  return <span data-testid="location">{location.pathname + location.search}</span>;
}

function renderPage(url = '/admin/moderacion') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/moderacion" element={<ModerationPage />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

/** Every GET /api/moderation/queue?… goes to `list` with its query; the rest to `handlers`. */
function stubQueue(list: (query: URLSearchParams) => Response | Promise<Response>, handlers: Record<string, Handler> = {}) {
  const fetchMock = stubApi(handlers);
  const fallback = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://tribuna.test');
    if ((init.method ?? 'GET') === 'GET' && url.pathname === '/api/moderation/queue') return list(url.searchParams);
    return fallback(path, init);
  });
  return fetchMock;
}
const answer = (page: ModerationQueue) => () => jsonResponse(200, page);
const queueRequests = (fetchMock: ReturnType<typeof stubApi>) => requestsOf(fetchMock).filter((r) => r.startsWith('GET /api/moderation/queue'));
const actionBodies = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls
    .filter(([path, init]) => `${(init as RequestInit).method} ${path}` === ACTIONS)
    .map(([, init]) => JSON.parse((init as RequestInit).body as string));

const itemList = () => screen.getByRole('list', { name: 'Pendientes' });
const card = (title: string) => screen.getByRole('article', { name: title });
const buttonsOf = (title: string) =>
  within(within(card(title)).getByRole('group', { name: /^Acciones/ }))
    .getAllByRole('button')
    .map((b) => b.textContent);

describe('ModerationPage', () => {
  const admin = buildProfile({ role: 'admin', displayName: 'Marta Admin' });
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    useSessionStore.setState({ user: admin, status: 'ready' });
  });

  it('shows skeletons, then each reported post with its reports, reasons, comments, the post with its images, its author and the actions', async () => {
    const author = buildModeratedAuthor({
      displayName: 'Luis Pérez',
      username: 'luis',
      createdAt: '2025-01-05T12:00:00.000Z',
      isSuspended: true,
      silencedUntil: '2026-03-09T12:00:00.000Z',
      reportsReceived: 7,
      history: [
        { action: 'hide', targetType: 'comment', at: '2026-02-01T18:30:00.000Z', reason: 'Insultos a otra fan' },
        { action: 'dismiss', targetType: 'post', at: '2026-01-20T10:00:00.000Z', reason: null },
      ],
    });
    const images = [1, 2, 3, 4, 5].map((n) => ({
      ...buildVideoMedia(),
      mediaType: 'image' as const,
      url: `/media/img-${n}.webp`,
      alt: n === 1 ? 'Captura' : null,
    }));
    const post = buildPost({
      content: 'Compra seguidores aquí',
      media: images,
      groupName: 'Team Ximena',
      author: { id: author.id, displayName: 'Luis Pérez', username: 'luis', avatarUrl: null },
    });
    const item = buildPostItem({
      post,
      author,
      reportCount: 4,
      reasons: { other: 1, spam: 3 },
      comments: ['Es publicidad', 'Lo publica en todos lados'],
    });
    stubQueue(answer(queuePage([item])));
    renderPage();
    expect(screen.getByText(MODERATION_QUEUE_TEXTS.loading)).toBeTruthy();
    await screen.findByRole('article', { name: 'Publicación de Luis Pérez' });
    expect(screen.getByRole('heading', { level: 2, name: 'Moderación' })).toBeTruthy();
    const article = within(card('Publicación de Luis Pérez'));
    expect(article.getByText('Visible')).toBeTruthy();
    expect(article.getByText('4 reportes')).toBeTruthy();
    // Reasons in the contracts' order, with their counts.
    expect(
      within(article.getByRole('list', { name: 'Motivos' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Spam · 3', 'Otro · 1']);
    expect(article.getByText('Es publicidad')).toBeTruthy();
    expect(article.getByText('Lo publica en todos lados')).toBeTruthy();
    // The post as its readers see it: text, group, four tiles with '+1', a link to it.
    expect(article.getByText('Compra seguidores aquí')).toBeTruthy();
    expect(article.getByText('En Team Ximena')).toBeTruthy();
    const tiles = within(article.getByRole('list', { name: '5 imágenes' })).getAllByRole('link');
    expect(tiles.map((t) => t.getAttribute('aria-label'))).toEqual([
      'Captura. Ver imagen 1 de 5',
      'Ver imagen 2 de 5',
      'Ver imagen 3 de 5',
      'Ver imagen 4 de 5, +1',
    ]);
    expect(tiles[0]!.getAttribute('href')).toBe('/media/img-1.webp');
    expect(article.getByRole('link', { name: 'Ver publicación' }).getAttribute('href')).toBe(`/wall?post=${post.id}`);
    // The author: created date, badges, reports received, history.
    const authorPanel = within(article.getByRole('group', { name: 'Autor' }));
    expect(authorPanel.getByRole('link', { name: 'Luis Pérez' }).getAttribute('href')).toBe(`/perfil/${author.id}`);
    expect(authorPanel.getByText('Cuenta creada el 5 de enero de 2025')).toBeTruthy();
    expect(authorPanel.getByText('Suspendido')).toBeTruthy();
    expect(authorPanel.getByText(`Silenciado hasta el ${formatSilencedUntil('2026-03-09T12:00:00.000Z')}`)).toBeTruthy();
    expect(authorPanel.getByText('7 reportes recibidos')).toBeTruthy();
    const history = authorPanel.getAllByRole('listitem').map((li) => li.textContent);
    expect(history[0]).toMatch(/^Ocultado · Comentario · .+«Insultos a otra fan»$/);
    expect(history[1]).toMatch(/^Reportes descartados · Publicación · /);
    // Only the actions the server offers, in their order; Suspender for an admin.
    expect(buttonsOf('Publicación de Luis Pérez')).toEqual(['Descartar', 'Ocultar', 'Eliminar', 'Silenciar al autor', 'Suspender']);
    expect(article.getByRole('button', { name: 'Ocultar: publicación de Luis Pérez' })).toBeTruthy();
  });

  it('shows a comment, a profile, a clip, an automatically hidden item and a deleted one as such', async () => {
    const comment = buildCommentItem({ state: 'hidden', autoHidden: true, actions: ['dismiss', 'restore', 'delete', 'silence'] });
    const profile = buildProfileItem();
    const clip = buildPostItem({
      author: buildModeratedAuthor({ displayName: 'Rita Clip' }),
      post: buildPost({ content: '', media: [buildVideoMedia({ durationS: 42 })] }),
      state: 'hidden',
    });
    const gone = buildPostItem({
      author: buildModeratedAuthor({ displayName: 'Pepe Borrado' }),
      state: 'deleted',
      post: null,
      actions: ['dismiss', 'silence'],
    });
    stubQueue(answer(queuePage([comment, profile, clip, gone])));
    renderPage();
    await screen.findByRole('article', { name: 'Comentario de Marta Ruiz' });
    expect(within(itemList()).getAllByRole('article')).toHaveLength(4);

    const onComment = within(card('Comentario de Marta Ruiz'));
    expect(onComment.getByText('Oculto automáticamente en espera de revisión')).toBeTruthy();
    expect(onComment.getByText('Eres lo peor')).toBeTruthy();
    // Hidden: readers cannot open it, so no link.
    expect(onComment.queryByRole('link', { name: 'Ver publicación' })).toBeNull();
    expect(buttonsOf('Comentario de Marta Ruiz')).toEqual(['Descartar', 'Restaurar', 'Eliminar', 'Silenciar al autor']);

    const onProfile = within(card('Perfil de Ximena Oficial'));
    expect(onProfile.getByText('La verdadera Ximena')).toBeTruthy();
    expect(onProfile.getAllByText('@ximena_real')).toHaveLength(2);
    expect(onProfile.getByText('Suplantación de identidad · 2')).toBeTruthy();
    expect(onProfile.getByRole('link', { name: 'Ver perfil' }).getAttribute('href')).toBe(`/perfil/${profile.targetId}`);

    const onClip = within(card('Publicación de Rita Clip'));
    expect(onClip.getByText('Oculto')).toBeTruthy();
    expect(onClip.getByRole('link', { name: 'Ver clip (0:42)' })).toBeTruthy();

    const onGone = within(card('Publicación de Pepe Borrado'));
    expect(onGone.getByText('Eliminado')).toBeTruthy();
    expect(onGone.getByText(MODERATION_MESSAGES.itemGone)).toBeTruthy();
  });

  it('says the queue is empty, or that nothing matches the filters, and shows a load error with Reintentar', async () => {
    stubQueue(answer(queuePage([])));
    let view = renderPage();
    expect(await screen.findByText(MODERATION_MESSAGES.queueEmpty)).toBeTruthy();
    view.unmount();

    stubQueue(answer(queuePage([])));
    view = renderPage('/admin/moderacion?reason=spam');
    expect(await screen.findByText(MODERATION_QUEUE_TEXTS.emptyFiltered)).toBeTruthy();
    view.unmount();

    let fail = true;
    stubQueue(() => (fail ? bareFailure() : jsonResponse(200, queuePage([buildPostItem()]))));
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(MODERATION_QUEUE_TEXTS.loadFailed);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('article', { name: 'Publicación de Luis Pérez' })).toBeTruthy();
  });

  it('filters by status and reason, in the URL and the request', async () => {
    const fetchMock = stubQueue((query) =>
      jsonResponse(200, queuePage([buildPostItem({ author: buildModeratedAuthor({ displayName: `Fan ${query.toString() || 'abiertos'}` }) })])),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Publicación de Fan abiertos' });
    const status = screen.getByLabelText('Estado') as HTMLSelectElement;
    const reason = screen.getByLabelText('Motivo') as HTMLSelectElement;
    expect(Array.from(status.options).map((o) => o.textContent)).toEqual(['Pendientes', 'Descartados', 'Con medidas']);
    expect(Array.from(reason.options).map((o) => o.textContent)).toEqual([
      'Todos',
      'Spam',
      'Acoso o insultos',
      'Contenido sexual',
      'Violencia',
      'Suplantación de identidad',
      'Otro',
    ]);

    await user.selectOptions(status, 'Descartados');
    await screen.findByRole('article', { name: 'Publicación de Fan status=dismissed' });
    await user.selectOptions(reason, 'Acoso o insultos');
    await screen.findByRole('article', { name: 'Publicación de Fan status=dismissed&reason=harassment' });
    expect(screen.getByTestId('location').textContent).toBe('/admin/moderacion?status=dismissed&reason=harassment');
    expect(screen.getByRole('list', { name: 'Descartados' })).toBeTruthy();
    await user.selectOptions(status, 'Con medidas');
    await screen.findByRole('article', { name: 'Publicación de Fan status=actioned&reason=harassment' });
    await user.selectOptions(status, 'Pendientes');
    await screen.findByRole('article', { name: 'Publicación de Fan reason=harassment' });
    expect(queueRequests(fetchMock)).toEqual([
      'GET /api/moderation/queue',
      'GET /api/moderation/queue?status=dismissed',
      'GET /api/moderation/queue?status=dismissed&reason=harassment',
      'GET /api/moderation/queue?status=actioned&reason=harassment',
      'GET /api/moderation/queue?reason=harassment',
    ]);
  });

  it('pages on with Cargar más (keyset cursor, filters kept), and retries a failed page', async () => {
    const first = [
      buildPostItem({ author: buildModeratedAuthor({ displayName: 'Uno' }) }),
      buildPostItem({ author: buildModeratedAuthor({ displayName: 'Dos' }) }),
    ];
    const second = [first[1]!, buildPostItem({ author: buildModeratedAuthor({ displayName: 'Tres' }) })];
    let failSecond = true;
    const fetchMock = stubQueue((query) => {
      if (!query.get('cursor')) return jsonResponse(200, queuePage(first, 'c2'));
      if (failSecond) return bareFailure();
      return jsonResponse(200, queuePage(second, null));
    });
    const user = userEvent.setup();
    renderPage('/admin/moderacion?reason=spam');
    await screen.findByRole('article', { name: 'Publicación de Uno' });
    await user.click(screen.getByRole('button', { name: 'Cargar más' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(MODERATION_QUEUE_TEXTS.loadFailed);
    failSecond = false;
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await screen.findByRole('article', { name: 'Publicación de Tres' });
    // The item already listed is not repeated; no more pages, no button.
    expect(
      within(itemList())
        .getAllByRole('article')
        .map((a) => a.getAttribute('aria-labelledby') && within(a).getByRole('heading', { level: 3 }).textContent),
    ).toEqual(['Publicación de Uno', 'Publicación de Dos', 'Publicación de Tres']);
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(queueRequests(fetchMock)).toEqual([
      'GET /api/moderation/queue?reason=spam',
      'GET /api/moderation/queue?reason=spam&cursor=c2',
      'GET /api/moderation/queue?reason=spam&cursor=c2',
    ]);
  });

  it.each<[ModerationAction, string, string]>([
    ['dismiss', 'Descartar', MODERATION_QUEUE_TEXTS.confirm.dismiss],
    ['hide', 'Ocultar', MODERATION_QUEUE_TEXTS.confirm.hide],
    ['delete', 'Eliminar', MODERATION_QUEUE_TEXTS.confirm.delete],
    ['suspend', 'Suspender', MODERATION_QUEUE_TEXTS.confirm.suspend],
  ])('%s: confirms in a dialog, sends the action with the reason, and the item leaves Pendientes with the message', async (action, label, confirmText) => {
    const item = buildPostItem();
    const other = buildPostItem({ author: buildModeratedAuthor({ displayName: 'Otra Fan' }) });
    const fetchMock = stubQueue(answer(queuePage([item, other])), {
      [ACTIONS]: () => jsonResponse(200, actionResult(null, 3, 'Acción aplicada: 3 reportes cerrados')),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Publicación de Luis Pérez' });

    // Cancelar sends nothing.
    await user.click(screen.getByRole('button', { name: `${label}: publicación de Luis Pérez` }));
    let dialog = screen.getByRole('dialog', { name: `${label}: publicación de Luis Pérez` });
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock)).not.toContain(ACTIONS);

    await user.click(screen.getByRole('button', { name: `${label}: publicación de Luis Pérez` }));
    dialog = screen.getByRole('dialog', { name: `${label}: publicación de Luis Pérez` });
    expect(dialog.textContent).toContain(confirmText);
    // No duration choice but for a silence.
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.type(within(dialog).getByLabelText('Motivo (opcional)'), '  Spam repetido  ');
    await user.click(within(dialog).getByRole('button', { name: label }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, ACTIONS)).toEqual({ targetType: 'post', targetId: item.targetId, action, reason: 'Spam repetido' });
    expect(screen.queryByRole('article', { name: 'Publicación de Luis Pérez' })).toBeNull();
    expect(screen.getByRole('article', { name: 'Publicación de Otra Fan' })).toBeTruthy();
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('Acción aplicada: 3 reportes cerrados');
    expect(status.parentElement!.contains(document.activeElement)).toBe(true);
  });

  it('silences the author: a duration must be chosen, then 1 hora / 24 horas / 7 días goes as silenceFor; without a reason none is sent', async () => {
    const item = buildPostItem();
    const silenced = {
      ...item,
      author: { ...item.author, silencedUntil: '2026-03-09T12:00:00.000Z' },
      actions: ['dismiss', 'hide', 'delete', 'unsilence', 'suspend'] as ModerationAction[],
    };
    const fetchMock = stubQueue(answer(queuePage([item])), { [ACTIONS]: () => jsonResponse(200, actionResult(silenced, 0)) });
    const user = userEvent.setup();
    renderPage('/admin/moderacion?status=actioned');
    await screen.findByRole('article', { name: 'Publicación de Luis Pérez' });
    await user.click(screen.getByRole('button', { name: 'Silenciar al autor: publicación de Luis Pérez' }));
    const dialog = screen.getByRole('dialog', { name: 'Silenciar al autor: publicación de Luis Pérez' });
    expect(dialog.textContent).toContain(MODERATION_QUEUE_TEXTS.confirm.silence);
    const group = within(dialog).getByRole('group', { name: 'Silenciar durante' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => (r.parentElement as HTMLLabelElement).textContent),
    ).toEqual(['1 hora', '24 horas', '7 días']);
    await user.click(within(dialog).getByRole('button', { name: 'Silenciar al autor' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(MODERATION_MESSAGES.silenceForRequired);
    expect(document.activeElement).toBe(within(group).getByRole('radio', { name: '1 hora' }));
    expect(requestsOf(fetchMock)).not.toContain(ACTIONS);

    await user.click(within(group).getByRole('radio', { name: '7 días' }));
    await user.click(within(dialog).getByRole('button', { name: 'Silenciar al autor' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, ACTIONS)).toEqual({ targetType: 'post', targetId: item.targetId, action: 'silence', silenceFor: '7d' });
    // Not the Pendientes list: the item stays, as the server answered it.
    const article = within(card('Publicación de Luis Pérez'));
    expect(article.getByText(`Silenciado hasta el ${formatSilencedUntil('2026-03-09T12:00:00.000Z')}`)).toBeTruthy();
    expect(buttonsOf('Publicación de Luis Pérez')).toEqual(['Descartar', 'Ocultar', 'Eliminar', 'Quitar silencio', 'Suspender']);
    expect(screen.getByRole('status').textContent).toBe(MODERATION_MESSAGES.actionDone);
  });

  it('restores an automatically hidden item and lifts a silence in place on Pendientes (they close no report)', async () => {
    const item = buildPostItem({
      state: 'hidden',
      autoHidden: true,
      author: buildModeratedAuthor({ silencedUntil: '2026-03-09T12:00:00.000Z' }),
      actions: ['dismiss', 'restore', 'delete', 'unsilence', 'suspend'],
    });
    const restored = {
      ...item,
      state: 'visible' as const,
      autoHidden: false,
      actions: ['dismiss', 'hide', 'delete', 'unsilence', 'suspend'] as ModerationAction[],
    };
    const unsilenced = {
      ...restored,
      author: { ...restored.author, silencedUntil: null },
      actions: ['dismiss', 'hide', 'delete', 'silence', 'suspend'] as ModerationAction[],
    };
    let reply = () => jsonResponse(200, actionResult(restored, 0));
    const fetchMock = stubQueue(answer(queuePage([item])), { [ACTIONS]: () => reply() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Oculto automáticamente en espera de revisión');
    await user.click(screen.getByRole('button', { name: 'Restaurar: publicación de Luis Pérez' }));
    let dialog = screen.getByRole('dialog', { name: 'Restaurar: publicación de Luis Pérez' });
    expect(dialog.textContent).toContain(MODERATION_QUEUE_TEXTS.confirm.restore);
    await user.click(within(dialog).getByRole('button', { name: 'Restaurar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card('Publicación de Luis Pérez')).getByText('Visible')).toBeTruthy();
    expect(buttonsOf('Publicación de Luis Pérez')).toEqual(['Descartar', 'Ocultar', 'Eliminar', 'Quitar silencio', 'Suspender']);

    reply = () => jsonResponse(200, actionResult(unsilenced, 0));
    await user.click(screen.getByRole('button', { name: 'Quitar silencio: publicación de Luis Pérez' }));
    dialog = screen.getByRole('dialog', { name: 'Quitar silencio: publicación de Luis Pérez' });
    expect(dialog.textContent).toContain(MODERATION_QUEUE_TEXTS.confirm.unsilence);
    await user.click(within(dialog).getByRole('button', { name: 'Quitar silencio' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(card('Publicación de Luis Pérez')).queryByText(/Silenciado hasta/)).toBeNull();
    expect(actionBodies(fetchMock)).toEqual([
      { targetType: 'post', targetId: item.targetId, action: 'restore' },
      { targetType: 'post', targetId: item.targetId, action: 'unsilence' },
    ]);
  });

  it('keeps the dialog open with the server message or the fallback, and refuses a reason over 500 characters', async () => {
    const item = buildPostItem();
    let reply: () => Response = () => apiError(409, MODERATION_MESSAGES.cannotModerateStaff);
    const fetchMock = stubQueue(answer(queuePage([item])), { [ACTIONS]: () => reply() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('article', { name: 'Publicación de Luis Pérez' });
    await user.click(screen.getByRole('button', { name: 'Ocultar: publicación de Luis Pérez' }));
    const dialog = screen.getByRole('dialog', { name: 'Ocultar: publicación de Luis Pérez' });
    const reason = within(dialog).getByLabelText('Motivo (opcional)');

    await user.click(reason);
    await user.paste('x'.repeat(501));
    expect(dialog.textContent).toContain('501/500');
    await user.click(within(dialog).getByRole('button', { name: 'Ocultar' }));
    expect(within(dialog).getByRole('alert').textContent).toBe(MODERATION_QUEUE_TEXTS.reasonTooLong);
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(reason);
    expect(requestsOf(fetchMock)).not.toContain(ACTIONS);

    await user.type(reason, '{Backspace}');
    await user.click(within(dialog).getByRole('button', { name: 'Ocultar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(MODERATION_MESSAGES.cannotModerateStaff);
    expect(bodyOf(fetchMock, ACTIONS)).toEqual({ targetType: 'post', targetId: item.targetId, action: 'hide', reason: 'x'.repeat(500) });

    reply = bareFailure;
    await user.click(within(dialog).getByRole('button', { name: 'Ocultar' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain(MODERATION_QUEUE_TEXTS.actionFailed));
    expect(screen.getByRole('article', { name: 'Publicación de Luis Pérez' })).toBeTruthy();
    expect(actionBodies(fetchMock)).toHaveLength(2);
  });

  it('offers a moderator no Suspender, even when the item lists it', async () => {
    useSessionStore.setState({ user: buildProfile({ role: 'moderator' }), status: 'ready' });
    stubQueue(answer(queuePage([buildPostItem(), buildProfileItem()])));
    renderPage();
    await screen.findByRole('article', { name: 'Publicación de Luis Pérez' });
    expect(buttonsOf('Publicación de Luis Pérez')).toEqual(['Descartar', 'Ocultar', 'Eliminar', 'Silenciar al autor']);
    expect(buttonsOf('Perfil de Ximena Oficial')).toEqual(['Descartar', 'Silenciar al autor']);
    expect(screen.queryByRole('button', { name: /^Suspender/ })).toBeNull();
  });
});
