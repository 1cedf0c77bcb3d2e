import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildPost, buildUser, buildVotes } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { escapeHtml } from './presenter.ts';

const PUBLIC_URL = 'https://tribuna.example.mx';
/** What a browser or a crawler following a shared link sends. */
const HOST = new URL(PUBLIC_URL).host;
const INDEX = `<!doctype html>
<html lang="es">
  <head>
    <meta charset="UTF-8" />
    <title>Tribuna — Votaciones en vivo</title>
  </head>
  <body><div id="root"></div></body>
</html>`;

/** The content of `<meta property|name="key" content="...">` in a page, unescaped only as far as the test needs. */
function meta(html: string, key: string): string | null {
  const match = new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)" />`).exec(html);
  return match ? match[1]! : null;
}

describe('link previews of shared polls (/?encuesta=<id>)', () => {
  let app: App;
  let database: Database;
  let dist: string;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'tribuna-og-'));
    await mkdir(dist, { recursive: true });
    await writeFile(join(dist, 'index.html'), INDEX);
  });
  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
  });
  // After the hooks above: built once `dist` exists, closed before it is removed.
  useTestApp({ PUBLIC_URL }, (ready) => ({ app, database } = ready), { build: () => ({ webDistDir: dist }) });

  const page = (url: string) => app.inject({ method: 'GET', url, headers: { accept: 'text/html', host: HOST } });

  async function voteRows(pollId: string, optionId: string, count: number, points = 1) {
    for (let i = 0; i < count; i++) {
      const user = await buildUser(database.db);
      await buildVotes(database.db, [{ pollId, optionId, userId: user.id, points }]);
    }
  }

  it('puts the poll, its leader and its share card in Open Graph and Twitter tags', async () => {
    const { poll, options } = await buildPoll(database.db, { title: 'Eliminación semana 5' });
    const leader = await database.db.select().from(schema.pollOptions).where(eq(schema.pollOptions.id, options[1]!.id));
    await database.db
      .update(schema.contestants)
      .set({ fullName: 'Ximena Valdés', photoUrl: '/media/contestants/ximena.webp' })
      .where(eq(schema.contestants.id, leader[0]!.contestantId!));
    await voteRows(poll.id, options[1]!.id, 2);
    await voteRows(poll.id, options[0]!.id, 1);

    const res = await page(`/?encuesta=${poll.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    const html = res.body;
    expect(html).toContain('<title>Eliminación semana 5 · Tribuna</title>');
    expect(html).not.toContain('Votaciones en vivo</title>');
    expect(meta(html, 'og:title')).toBe('Eliminación semana 5');
    expect(meta(html, 'og:description')).toBe('Va ganando Ximena Valdés con 67% · 3 votos — ¡Vota en Tribuna!');
    expect(meta(html, 'og:url')).toBe(`${PUBLIC_URL}/?encuesta=${poll.id}`);
    expect(meta(html, 'og:type')).toBe('website');
    expect(meta(html, 'og:site_name')).toBe('Tribuna');
    // The card of the current result, versioned by the live totals' seq.
    expect(meta(html, 'og:image')).toMatch(new RegExp(`^${PUBLIC_URL}/api/polls/${poll.id}/card\\.png\\?v=\\d+$`));
    expect(meta(html, 'twitter:image')).toBe(meta(html, 'og:image'));
    expect([meta(html, 'og:image:type'), meta(html, 'og:image:width'), meta(html, 'og:image:height')]).toEqual(['image/png', '1200', '630']);
    expect(meta(html, 'og:image:alt')).toBe('Resultados en vivo de «Eliminación semana 5» en Tribuna');
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    // The tags sit inside <head>, and the SPA itself is untouched.
    expect(html.indexOf('og:title')).toBeLessThan(html.indexOf('</head>'));
    expect(html).toContain('<div id="root"></div>');
  });

  it('invites the first vote when nobody voted, the card still the image', async () => {
    const { poll } = await buildPoll(database.db, { title: 'Nueva encuesta' });
    const html = (await page(`/?encuesta=${poll.id}`)).body;
    expect(meta(html, 'og:description')).toBe('Sé el primero en votar — ¡Vota en Tribuna!');
    expect(meta(html, 'og:image')).toMatch(new RegExp(`^${PUBLIC_URL}/api/polls/${poll.id}/card\\.png\\?v=\\d+$`));
  });

  it("a stored photo that is not a file of the site's media is drawn as the option's initial (written past the API)", async () => {
    for (const photoUrl of [
      'javascript:alert(1)',
      'data:image/svg+xml,<svg onload=alert(1)>',
      '//evil.example/x.png',
      '/media/../../../etc/passwd',
      'https://evil.example/x.png',
    ]) {
      const { poll, options } = await buildPoll(database.db, { title: 'Foto rara' });
      const option = await database.db.select().from(schema.pollOptions).where(eq(schema.pollOptions.id, options[0]!.id));
      await database.db.update(schema.contestants).set({ photoUrl }).where(eq(schema.contestants.id, option[0]!.contestantId!));
      await voteRows(poll.id, options[0]!.id, 1);
      const res = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/card.png`, headers: { host: HOST } });
      expect({ photoUrl, status: res.statusCode, type: res.headers['content-type'] }).toEqual({ photoUrl, status: 200, type: 'image/png' });
    }
  });

  it('escapes everything taken from the database', async () => {
    const title = `"><script>alert('x')</script> & co`;
    const { poll, options } = await buildPoll(database.db, { title });
    await database.db.update(schema.pollOptions).set({ contestantId: null, text: `<b>"Nadie"</b>` }).where(eq(schema.pollOptions.id, options[0]!.id));
    await voteRows(poll.id, options[0]!.id, 1);
    const html = (await page(`/?encuesta=${poll.id}`)).body;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>"Nadie"');
    expect(meta(html, 'og:title')).toBe(escapeHtml(title));
    expect(html).toContain(`<title>${escapeHtml(title)} · Tribuna</title>`);
    expect(meta(html, 'og:description')).toBe(`Va ganando ${escapeHtml('<b>"Nadie"</b>')} con 100% · 1 voto — ¡Vota en Tribuna!`);
  });

  it('never describes a draft, an unknown poll or a malformed id: the plain page is served', async () => {
    const draft = await buildPoll(database.db, { status: 'draft', title: 'Secreta' });
    const malformed = ['/?encuesta=%3Cscript%3E', `/?encuesta=${'x'.repeat(500)}`, '/?encuesta=a&encuesta=b'];
    for (const url of [`/?encuesta=${draft.poll.id}`, '/?encuesta=123e4567-e89b-42d3-a456-426614174000', ...malformed, '/']) {
      const res = await page(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>Tribuna — Votaciones en vivo</title>');
      expect(res.body, url).not.toContain('og:title');
      expect(res.body, url).not.toContain('Secreta');
    }
  });

  it('keeps results private when the poll hides them, and says who won a closed poll', async () => {
    const hidden = await buildPoll(database.db);
    await database.db.update(schema.polls).set({ showResults: false }).where(eq(schema.polls.id, hidden.poll.id));
    await voteRows(hidden.poll.id, hidden.options[0]!.id, 2);
    expect(meta((await page(`/?encuesta=${hidden.poll.id}`)).body, 'og:description')).toBe('¡Vota en Tribuna!');

    const closed = await buildPoll(database.db, { status: 'closed' });
    await voteRows(closed.poll.id, closed.options[0]!.id, 1, 1);
    const description = meta((await page(`/?encuesta=${closed.poll.id}`)).body, 'og:description');
    expect(description).toMatch(/^Ganó Concursante 1 .* con 100% · 1 voto — Tribuna$/);
  });

  describe('of a shared post (/wall?post=<id>)', () => {
    const wall = (postId: string) => page(`/wall?post=${postId}`);

    it('names its author, starts its text and shows its first image', async () => {
      const author = await buildUser(database.db, { displayName: 'Ana Ruiz' });
      const content = `¡Qué gala! ${'Ximena merece quedarse. '.repeat(12)}`;
      const post = await buildPost(database.db, author.id, { content });
      await database.db.insert(schema.postMedia).values([
        { postId: post.id, mediaType: 'image', url: '/media/p/first.webp', width: 1080, height: 1350, order: 0, altText: 'Ximena en la gala' },
        { postId: post.id, mediaType: 'image', url: '/media/p/second.webp', order: 1 },
      ]);
      const res = await wall(post.id);
      expect(res.statusCode).toBe(200);
      const html = res.body;
      expect(meta(html, 'og:title')).toBe('Publicación de Ana Ruiz');
      const description = meta(html, 'og:description')!;
      expect(description.startsWith('¡Qué gala! Ximena merece quedarse.')).toBe(true);
      expect(description.endsWith('…')).toBe(true);
      expect([...description].length).toBeLessThanOrEqual(200);
      expect(meta(html, 'og:url')).toBe(`${PUBLIC_URL}/wall?post=${post.id}`);
      expect(meta(html, 'og:image')).toBe(`${PUBLIC_URL}/media/p/first.webp`);
      expect([meta(html, 'og:image:width'), meta(html, 'og:image:height'), meta(html, 'og:image:alt')]).toEqual(['1080', '1350', 'Ximena en la gala']);
      expect(html).toContain('<div id="root"></div>');
    });

    it("previews a clip with its poster frame, the video's size and a description of it", async () => {
      const author = await buildUser(database.db, { displayName: 'Leo' });
      const post = await buildPost(database.db, author.id, { content: 'El momento de la noche' });
      await database.db
        .insert(schema.postMedia)
        .values({ postId: post.id, mediaType: 'video', url: '/media/v/clip.mp4', thumbnailUrl: '/media/v/poster.webp', width: 720, height: 1280, order: 0 });
      const html = (await wall(post.id)).body;
      expect(meta(html, 'og:image')).toBe(`${PUBLIC_URL}/media/v/poster.webp`);
      expect([meta(html, 'og:image:width'), meta(html, 'og:image:height'), meta(html, 'og:image:alt')]).toEqual([
        '720',
        '1280',
        'Video de la publicación de Leo',
      ]);
    });

    it('previews nothing of a post a visitor may not see, nor of a malformed id', async () => {
      const author = await buildUser(database.db);
      const [group] = await database.db.insert(schema.groups).values({ name: 'Privado', privacy: 'private' }).returning();
      const privatePost = await buildPost(database.db, author.id, { content: 'Solo el grupo', groupId: group!.id, visibility: 'group' });
      const hidden = await buildPost(database.db, author.id, { content: 'Oculta', isHidden: true });
      const followers = await buildPost(database.db, author.id, { content: 'Seguidores', visibility: 'followers' });
      for (const id of [privatePost.id, hidden.id, followers.id, 'no-es-un-id', '123e4567-e89b-42d3-a456-426614174000']) {
        const res = await wall(id);
        expect({ id, status: res.statusCode, title: meta(res.body, 'og:title') }).toEqual({ id, status: 200, title: null });
        expect(res.body).toContain('<title>Tribuna — Votaciones en vivo</title>');
      }
    });
  });
});

describe('link previews under a burst of crawlers', () => {
  let app: App;
  let database: Database;
  let dist: string;
  /** Every SQL statement the server sends while `counting` is on. */
  const statements: string[] = [];
  let counting = false;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'tribuna-og-burst-'));
    await writeFile(join(dist, 'index.html'), INDEX);
  });
  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
  });
  useTestApp({ PUBLIC_URL }, (ready) => ({ app, database } = ready), {
    build: () => ({
      webDistDir: dist,
      // A poll cache that cannot expire during a test: what is asserted is where previews read from, not timing.
      polls: { pollCacheTtlMs: 3_600_000 },
      rateLimits: { 'og.preview': { store: 'local', whenLimited: 'degrade', perAddress: { max: 5, windowSeconds: 3600 } } },
      onQuery: (query) => {
        if (counting) statements.push(query);
      },
    }),
  });

  const preview = (pollId: string, remoteAddress = '203.0.113.7') =>
    app.inject({
      method: 'GET',
      url: `/?encuesta=${pollId}`,
      headers: { accept: 'text/html', host: HOST, 'user-agent': 'facebookexternalhit/1.1' },
      remoteAddress,
    });

  it('describes the poll from the caches: after the first preview, no SQL at all', async () => {
    const { poll, options } = await buildPoll(database.db, { title: 'Nominados' });
    const fan = await buildUser(database.db);
    await buildVotes(database.db, [{ pollId: poll.id, optionId: options[0]!.id, userId: fan.id, points: 1 }]);

    const first = await preview(poll.id);
    expect(meta(first.body, 'og:title')).toBe('Nominados');
    const described = meta(first.body, 'og:description');
    expect(described).toMatch(/^Va ganando Concursante 1 .* con 100% · 1 voto — ¡Vota en Tribuna!$/);

    statements.length = 0;
    counting = true;
    const burst = await Promise.all(Array.from({ length: 4 }, () => preview(poll.id)));
    counting = false;
    for (const res of burst) {
      expect(res.statusCode).toBe(200);
      expect(meta(res.body, 'og:description')).toBe(described);
    }
    expect(statements).toEqual([]);
  });

  it('beyond the limit of an address serves the plain page (200, no poll tags, no SQL); another address still gets the preview', async () => {
    const { poll } = await buildPoll(database.db, { title: 'Eliminación' });
    const allowed = [];
    for (let i = 0; i < 5; i++) allowed.push(await preview(poll.id));
    for (const res of allowed) expect(meta(res.body, 'og:title')).toBe('Eliminación');

    statements.length = 0;
    counting = true;
    const limited = await Promise.all(Array.from({ length: 20 }, () => preview(poll.id)));
    counting = false;
    for (const res of limited) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<title>Tribuna — Votaciones en vivo</title>');
      expect(res.body).not.toContain('og:title');
    }
    expect(statements).toEqual([]);

    const elsewhere = await preview(poll.id, '198.51.100.20');
    expect(meta(elsewhere.body, 'og:title')).toBe('Eliminación');
  });

  it('a poll nobody watches has its live totals rebuilt once, then read from Redis', async () => {
    const { poll, options } = await buildPoll(database.db, { title: 'Favorito' });
    const fan = await buildUser(database.db);
    const other = await buildUser(database.db);
    await buildVotes(database.db, [
      { pollId: poll.id, optionId: options[1]!.id, userId: fan.id, points: 1 },
      { pollId: poll.id, optionId: options[1]!.id, userId: other.id, points: 1 },
    ]);
    expect(await app.pollsLive.currentSeq(poll.id)).toBeNull();
    expect(meta((await preview(poll.id)).body, 'og:description')).toMatch(/^Va ganando Concursante 2 .* con 100% · 2 votos — ¡Vota en Tribuna!$/);
    expect(await app.pollsLive.currentSeq(poll.id)).not.toBeNull();

    // A vote recorded in the live totals (as the vote path does after its commit) shows at once, without SQL.
    await app.pollsLive.store.recordVotes({
      pollId: poll.id,
      committedAt: Date.now(),
      added: [{ optionId: options[0]!.id, userId: fan.id, displayName: 'Fan', avatarUrl: null, points: 1 }],
      removed: [],
    });
    statements.length = 0;
    counting = true;
    const res = await preview(poll.id);
    counting = false;
    expect(meta(res.body, 'og:description')).toMatch(/^Va ganando Concursante 2 .* con 67% · 3 votos — ¡Vota en Tribuna!$/);
    expect(statements).toEqual([]);
  });
});
