// Uploads on the real, listening server: the bodies are streamed to temporary files as they
// arrive (never held in memory), charged to the instance's budget (UPLOAD_BYTES_IN_FLIGHT, 503 and
// Retry-After beyond it), and given the upload deadline rather than Node's own request timeout.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { Database } from '@tribuna/drizzle/client';
import { buildUser } from '../../../test/support/factories.ts';
import { HTTP_TIMEOUTS, nodeRequestTimeoutMs, type App, type HttpTimeouts } from '../app.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { signIn, XHR } from '../../../test/support/server/sessions.ts';
import { UPLOAD_BUDGET_RETRY_AFTER_SECONDS } from './uploadBudget.ts';

/**
 * Short timeouts with the production's shape: ordinary requests (and, before this fix, Node's own
 * requestTimeout) get `requestMs`; a post's images get far longer (`albumUploadMs`), a single image
 * a deadline short enough to wait for (`uploadMs`). Idle sockets are left alone for longer than
 * any of them, so a 408 can only come from a body deadline.
 */
const TIMEOUTS: HttpTimeouts = { requestMs: 400, uploadMs: 2_500, albumUploadMs: 10_000, idleMs: 30_000, keepAliveMs: 30_000 };
const MIB = 1024 * 1024;
const BUDGET = 2 * MIB;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const png = (background: string) =>
  sharp({ create: { width: 24, height: 24, channels: 3, background } })
    .png()
    .toBuffer();

/** A raw HTTP/1.1 client on one connection: what it received, and a promise settled when the server closes it. */
function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  /** Writes and waits until the kernel took it (backpressure), unless the server closed the socket. */
  const send = (data: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed || !socket.writable) return resolve();
      socket.write(data, () => resolve());
    });
  return { socket, connected, closed, send, received: () => received };
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The first response in `raw` (the request was sent with `Connection: close`, so it is all there once the socket closed). */
function parseAnswer(raw: string): Answer {
  const end = raw.indexOf('\r\n\r\n');
  expect(end, raw).toBeGreaterThan(0);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = raw.slice(end + 4);
  if (headers['content-length'] !== undefined) body = body.slice(0, Number(headers['content-length']));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: Buffer.from(body, 'latin1').toString('utf8') };
}

describe('uploads on the listening server', () => {
  let app: App;
  let database: Database;
  let port = 0;
  let mediaRoot: string;

  beforeAll(async () => {
    mediaRoot = await mkdtemp(join(tmpdir(), 'tribuna-slow-uploads-'));
  });
  afterAll(async () => {
    await rm(mediaRoot, { recursive: true, force: true });
  });
  useListeningTestApp(
    () => ({ MEDIA_DIR: mediaRoot, UPLOAD_BYTES_IN_FLIGHT: String(BUDGET) }),
    (ready) => ({ app, database, port } = ready),
    { build: () => ({ httpTimeouts: TIMEOUTS }) },
  );

  /** The request head of a multipart POST as `user` (Content-Length: `length`, or chunked when null). */
  async function head(path: string, contentType: string, length: number | null): Promise<string> {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    return [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${port}`,
      `Cookie: ${cookie}`,
      `X-Requested-With: ${XHR['x-requested-with']}`,
      `Content-Type: ${contentType}`,
      length === null ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
  }

  const tempFiles = () => readdir(app.uploads.dir);
  const mediaRows = () => database.sql<{ key: string }[]>`SELECT key FROM media`;

  /** Nothing held once every request is over: no temporary file and no byte of the budget. */
  async function expectNothingHeld(): Promise<void> {
    await vi.waitFor(() => expect(app.uploads.budget.inFlight).toBe(0), { timeout: 5_000 });
    expect(await tempFiles()).toEqual([]);
  }

  it("sets Node's request timeout above the longest upload deadline (Node's own 30 s no longer cuts uploads)", () => {
    expect(app.server.requestTimeout).toBe(nodeRequestTimeoutMs(TIMEOUTS));
    expect(app.server.requestTimeout).toBeGreaterThan(TIMEOUTS.requestMs + TIMEOUTS.albumUploadMs);
    expect(app.server.headersTimeout).toBe(TIMEOUTS.requestMs);
    // In production: the headers in 30 s, a post's images in 5 minutes, and Node waits for both.
    expect(nodeRequestTimeoutMs(HTTP_TIMEOUTS)).toBeGreaterThan(HTTP_TIMEOUTS.requestMs + HTTP_TIMEOUTS.albumUploadMs);
  });

  it('lands a post whose images arrive slowly but steadily, for several times requestMs, within the upload deadline', async () => {
    const images = await Promise.all([png('red'), png('blue')]);
    const form = multipart([
      { name: 'content', value: 'Fotos desde el foro' },
      ...images.map((data, i): MultipartPart => ({ name: 'images', filename: `${i}.png`, type: 'image/png', data })),
    ]);
    const client = rawClient(port);
    await client.connected;
    await client.send(await head('/api/posts', form.headers['content-type'], form.payload.length));

    // 20 pieces, at least requestMs / 4 apart: the body takes at least 5 × requestMs to arrive,
    // past the point where Node's request timeout (requestMs, checked every requestMs) cut it before.
    const pieces = 20;
    const size = Math.ceil(form.payload.length / pieces);
    // Once the second image's part has begun, the first is complete: on disk and charged, while the
    // rest of the body is still to come.
    const secondImageAt = form.payload.indexOf('filename="1.png"');
    let firstImageHeld = false;
    for (let offset = 0; offset < form.payload.length; offset += size) {
      await client.send(form.payload.subarray(offset, offset + size));
      if (!firstImageHeld && offset + size > secondImageAt) {
        await vi.waitFor(() => expect(app.uploads.budget.inFlight).toBe(images[0]!.length), { timeout: 5_000 });
        firstImageHeld = true;
      }
      if (offset + size < form.payload.length) await sleep(TIMEOUTS.requestMs / 4);
    }
    expect(firstImageHeld).toBe(true);
    await client.closed;

    const answer = parseAnswer(client.received());
    expect(answer.status, answer.body).toBe(201);
    expect(JSON.parse(answer.body).media).toHaveLength(2);
    expect(await mediaRows()).toHaveLength(2);
    await expectNothingHeld();
  });

  it('cuts a stalled upload at its deadline with 408, stores nothing and gives its bytes back', async () => {
    const image = randomBytes(256 * 1024);
    const form = multipart([{ name: 'image', filename: 'yo.jpg', type: 'image/jpeg', data: image }]);
    const client = rawClient(port);
    await client.connected;
    await client.send(await head('/api/me/avatar', form.headers['content-type'], form.payload.length));
    // Half the image, then nothing more.
    await client.send(form.payload.subarray(0, form.payload.length / 2));

    // What arrived is in a temporary file, every byte of it charged to the budget.
    await vi.waitFor(async () => {
      const [file] = await tempFiles();
      expect(file).toBeDefined();
      expect(app.uploads.budget.inFlight).toBeGreaterThan(0);
      expect((await stat(join(app.uploads.dir, file!))).size).toBe(app.uploads.budget.inFlight);
    });

    await client.closed;
    const answer = parseAnswer(client.received());
    expect(answer.status).toBe(408);
    expect(answer.headers.connection).toBe('close');
    await expectNothingHeld();
    expect(await mediaRows()).toEqual([]);
  });

  it('refuses with 503 and Retry-After what does not fit beside a withheld upload, and takes uploads again once it is gone', async () => {
    // A fan's post withheld after 1.5 MiB of its first image (of the 2 MiB budget).
    const withheldForm = multipart([{ name: 'images', filename: 'grande.jpg', type: 'image/jpeg', data: randomBytes(3 * MIB) }]);
    const withheld = rawClient(port);
    await withheld.connected;
    await withheld.send(await head('/api/posts', withheldForm.headers['content-type'], withheldForm.payload.length));
    await withheld.send(withheldForm.payload.subarray(0, 1.5 * MIB + 200));
    /** The withheld upload's bytes: on disk, not in memory, and charged to the budget. */
    const expectWithheldHeld = async () => {
      const files = await tempFiles();
      expect(files).toHaveLength(1);
      expect(app.uploads.budget.inFlight).toBeGreaterThanOrEqual(1.5 * MIB - 100);
      expect((await stat(join(app.uploads.dir, files[0]!))).size).toBe(app.uploads.budget.inFlight);
    };
    await vi.waitFor(expectWithheldHeld, { timeout: 5_000 });

    const expectBusy = (answer: Answer) => {
      expect(answer.status, answer.body).toBe(503);
      expect(answer.headers['retry-after']).toBe(String(UPLOAD_BUDGET_RETRY_AFTER_SECONDS));
      expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 503, message: WALL_MESSAGES.mediaBusy });
    };

    // A declared 1 MiB that cannot fit: refused before a byte of it is read.
    const declared = multipart([{ name: 'image', filename: 'yo.jpg', type: 'image/jpeg', data: randomBytes(MIB) }]);
    const second = rawClient(port);
    await second.connected;
    await second.send(Buffer.concat([Buffer.from(await head('/api/me/avatar', declared.headers['content-type'], declared.payload.length)), declared.payload]));
    await second.closed;
    expectBusy(parseAnswer(second.received()));

    // No declared length (chunked): charged as it arrives, refused at the byte that does not fit.
    const chunked = multipart([{ name: 'image', filename: 'yo.jpg', type: 'image/jpeg', data: randomBytes(MIB) }]);
    const third = rawClient(port);
    await third.connected;
    await third.send(await head('/api/me/avatar', chunked.headers['content-type'], null));
    for (let offset = 0; offset < chunked.payload.length && !third.received(); offset += 64 * 1024) {
      const piece = chunked.payload.subarray(offset, offset + 64 * 1024);
      await third.send(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]));
      expect(app.uploads.budget.inFlight).toBeLessThanOrEqual(BUDGET);
    }
    await third.send('0\r\n\r\n');
    await third.closed;
    expectBusy(parseAnswer(third.received()));

    // The refused ones gave back what they took and removed their files; the withheld one still holds its bytes.
    await vi.waitFor(expectWithheldHeld, { timeout: 5_000 });

    // The withheld fan goes away: its file and its bytes go too, and uploads are taken again.
    withheld.socket.destroy();
    await expectNothingHeld();
    const image = await png('green');
    const ok = multipart([{ name: 'image', filename: 'yo.png', type: 'image/png', data: image }]);
    const fourth = rawClient(port);
    await fourth.connected;
    await fourth.send(Buffer.concat([Buffer.from(await head('/api/me/avatar', ok.headers['content-type'], ok.payload.length)), ok.payload]));
    await fourth.closed;
    const answer = parseAnswer(fourth.received());
    expect(answer.status, answer.body).toBe(201);
    await expectNothingHeld();
  });
});
