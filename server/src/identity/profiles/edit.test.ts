// The edit profile dialog's server side: PATCH /api/me (spec §5 rules and messages, username
// uniqueness under concurrent requests, avatar and banner URL rules) and the avatar and banner
// uploads (types sniffed from the bytes, 5 MB, cropped to 400×400 and 1500×500 WebP).
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { Profile } from '@tribuna/contracts/api/me';
import type { UploadedProfileImage } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { buildUser } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { SUSPENDED_MESSAGE } from '../plugin.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { multipart } from '../../../../test/support/server/multipart.ts';
import { asUser, signIn, XHR } from '../../../../test/support/server/sessions.ts';

const WIDE = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } } as const;

const image = (format: 'jpeg' | 'png' | 'webp' | 'gif', width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 200 } } })
    [format]()
    .toBuffer();

describe('editing the own profile', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), {
    build: () => ({ rateLimits: { 'account.update': WIDE, 'account.upload': WIDE } }),
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  const patch = (headers: Record<string, string>, payload: unknown) => app.inject({ method: 'PATCH', url: '/api/me', headers, payload: payload as object });
  const row = async (id: string) => (await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, id)))[0]!;

  describe('PATCH /api/me', () => {
    it('changes only the fields sent, trimmed, and sets updated_at', async () => {
      const { user, headers } = await fan({ displayName: 'Ana', username: 'ana_vieja', bio: 'Bio vieja', updatedAt: new Date('2024-01-01T00:00:00Z') });
      const res = await patch(headers, { displayName: '  Ana María  ' });
      expect(res.statusCode).toBe(200);
      expect(res.json<Profile>()).toMatchObject({ id: user.id, displayName: 'Ana María', username: 'ana_vieja', bio: 'Bio vieja', role: 'user' });
      expect((await row(user.id)).updatedAt.getTime()).toBeGreaterThan(new Date('2024-01-01T00:00:00Z').getTime());

      const next = (await patch(headers, { username: '  Ana_Nueva ', bio: '  Hola\nmundo  ' })).json<Profile>();
      expect(next).toMatchObject({ displayName: 'Ana María', username: 'ana_nueva', bio: 'Hola\nmundo' });
      // Empty username and bio clear them; so does null.
      expect((await patch(headers, { username: '', bio: '   ' })).json<Profile>()).toMatchObject({ username: null, bio: null });
      await patch(headers, { username: 'ana_otra', bio: 'x' });
      expect((await patch(headers, { username: null, bio: null })).json<Profile>()).toMatchObject({ username: null, bio: null });
      expect((await patch(headers, {})).statusCode).toBe(200);
    });

    it.each([
      [{ displayName: '' }, PROFILE_MESSAGES.nameEmpty],
      [{ displayName: '   ' }, PROFILE_MESSAGES.nameEmpty],
      [{ displayName: 'a'.repeat(51) }, PROFILE_MESSAGES.nameTooLong],
      [{ displayName: '🙂'.repeat(51) }, PROFILE_MESSAGES.nameTooLong],
      [{ username: 'ab' }, PROFILE_MESSAGES.usernameInvalid],
      [{ username: 'a'.repeat(21) }, PROFILE_MESSAGES.usernameInvalid],
      [{ username: 'ana-maria' }, PROFILE_MESSAGES.usernameInvalid],
      [{ username: 'ana maria' }, PROFILE_MESSAGES.usernameInvalid],
      [{ username: 'ñandú' }, PROFILE_MESSAGES.usernameInvalid],
      [{ bio: 'b'.repeat(501) }, PROFILE_MESSAGES.bioTooLong],
    ])('refuses %j with "%s" and changes nothing', async (payload, message) => {
      const { user, headers } = await fan({ displayName: 'Intacta', username: 'intacta', bio: 'Intacta' });
      const res = await patch(headers, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
      expect(await row(user.id)).toMatchObject({ displayName: 'Intacta', username: 'intacta', bio: 'Intacta' });
    });

    it('accepts the limits themselves: 50 characters of name (emoji count as one), 3 and 20 of username, 500 of bio', async () => {
      const { headers } = await fan();
      expect((await patch(headers, { displayName: '🙂'.repeat(50), username: 'abc', bio: 'b'.repeat(500) })).statusCode).toBe(200);
      expect((await patch(headers, { displayName: 'a'.repeat(50), username: 'a_1'.padEnd(20, '9') })).statusCode).toBe(200);
    });

    it('refuses a username another profile holds, ignoring case: 409 "Username already taken"', async () => {
      await fan({ username: 'ana_1' });
      const { user, headers } = await fan({ username: 'mio' });
      const res = await patch(headers, { username: 'Ana_1', bio: 'no se guarda' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(PROFILE_MESSAGES.usernameTaken);
      expect(await row(user.id)).toMatchObject({ username: 'mio', bio: null });
      // One's own username again is fine, in any case.
      expect((await patch(headers, { username: 'MIO' })).json<Profile>().username).toBe('mio');
    });

    it('lets exactly one of many concurrent requests for a free username win; the others get 409, never a 500', async () => {
      const fans = await Promise.all(Array.from({ length: 8 }, () => fan()));
      const answers = await Promise.all(fans.map((f, i) => patch(f.headers, { username: i % 2 ? 'Disputado' : 'disputado' })));
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      for (const answer of answers.filter((a) => a.statusCode === 409)) expect(answer.json().message).toBe(PROFILE_MESSAGES.usernameTaken);
      const holders = await database.db.select().from(schema.profiles).where(eq(schema.profiles.username, 'disputado'));
      expect(holders).toHaveLength(1);
    });

    it('refuses suspended users (403) and visitors (401), and unknown fields (400)', async () => {
      const suspended = await fan({ isSuspended: true, displayName: 'Suspendida' });
      const res = await patch(suspended.headers, { displayName: 'Otra' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(SUSPENDED_MESSAGE);
      expect((await row(suspended.user.id)).displayName).toBe('Suspendida');
      expect((await patch({ ...XHR }, { displayName: 'Otra' })).statusCode).toBe(401);
      expect((await patch((await fan()).headers, { role: 'admin' })).statusCode).toBe(400);
    });

    describe('avatar and banner URLs', () => {
      const site = () => new URL(app.config.publicUrl).origin;
      const refused = (kind: 'avatar' | 'banner') => {
        const m =
          kind === 'avatar'
            ? { https: PROFILE_MESSAGES.avatarHttps, host: PROFILE_MESSAGES.avatarHost, invalid: PROFILE_MESSAGES.avatarInvalid }
            : { https: PROFILE_MESSAGES.bannerHttps, host: PROFILE_MESSAGES.bannerHost, invalid: PROFILE_MESSAGES.bannerInvalid };
        return [
          ['javascript:alert(1)', m.https],
          ['JavaScript:alert(document.cookie)', m.https],
          ['data:image/png;base64,iVBORw0KGgo=', m.https],
          ['vbscript:msgbox(1)', m.https],
          ['file:///etc/passwd', m.https],
          ['http://lh3.googleusercontent.com/a/foto.jpg', m.https],
          ['https://evil.example.com/foto.jpg', m.host],
          ['https://googleusercontent.com.evil.com/foto.jpg', m.host],
          ['https://user:pw@lh3.googleusercontent.com/a/foto.jpg', m.host],
          ['https://lh3.googleusercontent.com:8443/a/foto.jpg', m.host],
          ['/api/me', m.https],
          ['/media/../api/me', m.https],
          ['https://exa mple.com/x.jpg', m.invalid],
          ['https://lh3.googleusercontent.com/a\\b', m.invalid],
        ] as const;
      };

      it.each([['avatar' as const], ['banner' as const]])('refuses unsafe or foreign %s URLs with the spec messages', async (kind) => {
        const { user, headers } = await fan({ avatarUrl: '/media/aa/bb/keep.webp', bannerUrl: '/media/aa/bb/keep.webp' });
        const field = kind === 'avatar' ? 'avatarUrl' : 'bannerUrl';
        for (const [url, message] of refused(kind)) {
          const res = await patch(headers, { [field]: url });
          expect([url, res.statusCode, res.json().message]).toEqual([url, 400, message]);
        }
        expect((await row(user.id))[field]).toBe('/media/aa/bb/keep.webp');
      });

      it("accepts this site's own /media/ uploads (stored as the path) and the Google user-content host; null or empty clears", async () => {
        const { headers } = await fan();
        const ok = async (payload: object) => {
          const res = await patch(headers, payload);
          expect(res.statusCode).toBe(200);
          return res.json<Profile>();
        };
        expect(await ok({ avatarUrl: '/media/ab/cd/avatar.webp', bannerUrl: `${site()}/media/ab/cd/banner.webp` })).toMatchObject({
          avatarUrl: '/media/ab/cd/avatar.webp',
          bannerUrl: '/media/ab/cd/banner.webp',
        });
        expect(await ok({ avatarUrl: 'https://lh3.googleusercontent.com/a/ACg8oc=s96-c' })).toMatchObject({
          avatarUrl: 'https://lh3.googleusercontent.com/a/ACg8oc=s96-c',
          bannerUrl: '/media/ab/cd/banner.webp',
        });
        expect(await ok({ avatarUrl: null, bannerUrl: '' })).toMatchObject({ avatarUrl: null, bannerUrl: null });
      });
    });
  });

  describe('POST /api/me/avatar and /api/me/banner', () => {
    const upload = (headers: Record<string, string>, kind: 'avatar' | 'banner', data: Buffer, type = 'image/jpeg', filename = 'foto.jpg') => {
      const body = multipart([{ name: 'image', filename, type, data }]);
      return app.inject({ method: 'POST', url: `/api/me/${kind}`, headers: { ...headers, ...body.headers }, payload: body.payload });
    };
    const stored = async (url: string) => {
      const path = join(resolve(app.config.mediaDir), url.replace(/^\/media\//, ''));
      expect((await stat(path)).isFile()).toBe(true);
      return sharp(path).metadata();
    };

    it.each([
      ['avatar' as const, 1200, 900, 400, 400],
      ['banner' as const, 2400, 1200, 1500, 500],
      ['banner' as const, 600, 400, 600, 200],
      ['avatar' as const, 300, 500, 300, 300],
    ])('crops a %s of %i×%i to %i×%i WebP, with its media row', async (kind, width, height, outWidth, outHeight) => {
      const { user, headers } = await fan();
      const res = await upload(headers, kind, await image('jpeg', width, height));
      expect(res.statusCode).toBe(201);
      const body = res.json<UploadedProfileImage>();
      expect(body).toMatchObject({
        width: outWidth,
        height: outHeight,
        url: expect.stringMatching(/^\/media\/.+\.webp$/),
        thumbnailUrl: expect.stringMatching(/^\/media\//),
      });
      const meta = await stored(body.url);
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', outWidth, outHeight]);
      const key = body.url.slice('/media/'.length);
      const [media] = await database.db.select().from(schema.media).where(eq(schema.media.key, key));
      expect(media).toMatchObject({ uploadedBy: user.id, width: outWidth, height: outHeight });
      // Saved by PATCH /api/me.
      const field = kind === 'avatar' ? 'avatarUrl' : 'bannerUrl';
      expect((await app.inject({ method: 'PATCH', url: '/api/me', headers, payload: { [field]: body.url } })).json<Profile>()[field]).toBe(body.url);
    });

    it('accepts PNG and WebP too', async () => {
      const { headers } = await fan();
      expect((await upload(headers, 'avatar', await image('png', 50, 50), 'image/png', 'a.png')).statusCode).toBe(201);
      expect((await upload(headers, 'banner', await image('webp', 90, 30), 'image/webp', 'b.webp')).statusCode).toBe(201);
    });

    it('refuses anything but JPG, PNG and WebP, told by the bytes: "Invalid file type. Only JPG, PNG, and WebP images are allowed"', async () => {
      const { headers } = await fan();
      for (const [data, type, name] of [
        [await image('gif', 40, 40), 'image/gif', 'a.gif'],
        [await image('gif', 40, 40), 'image/jpeg', 'a.jpg'],
        [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/svg+xml', 'a.svg'],
        [Buffer.from('just text pretending'), 'image/png', 'a.png'],
      ] as const) {
        const res = await upload(headers, 'avatar', data, type, name);
        expect([name, res.statusCode, res.json().message]).toEqual([name, 400, PROFILE_MESSAGES.imageTypeApi]);
      }
      expect(await database.db.select().from(schema.media)).toHaveLength(0);
    });

    it('refuses a file over 5 MB: 413 "File size exceeds 5MB limit"', async () => {
      const { headers } = await fan();
      const big = Buffer.concat([await image('png', 10, 10), Buffer.alloc(5 * 1024 * 1024)]);
      const res = await upload(headers, 'banner', big, 'image/png', 'big.png');
      expect(res.statusCode).toBe(413);
      expect(res.json().message).toBe(PROFILE_MESSAGES.imageTooLargeApi);
      expect(await database.db.select().from(schema.media)).toHaveLength(0);
    });

    it('refuses visitors (401) and suspended users (403) before reading the image', async () => {
      const jpeg = await image('jpeg', 20, 20);
      expect((await upload({ ...XHR }, 'avatar', jpeg)).statusCode).toBe(401);
      expect((await upload((await fan({ isSuspended: true })).headers, 'banner', jpeg)).statusCode).toBe(403);
      expect(await database.db.select().from(schema.media)).toHaveLength(0);
    });
  });
});
