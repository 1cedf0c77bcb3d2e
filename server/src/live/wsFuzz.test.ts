// Fuzzing the live websocket of the real listening app (real PostgreSQL and Redis): random and
// malformed frames — JSON of every wrong shape, unknown message types, garbage and real topics,
// rapid subscribe/unsubscribe, binary, invalid UTF-8, oversized and fragmented messages, and raw
// RFC 6455 violations written straight to the TCP stream. Whatever arrives, the server keeps
// running, a bystander's socket keeps working, each frame is answered (an error, a pong) or the
// connection is closed with a protocol close code, and once the sockets are gone the server holds
// nothing of them (its connection and subscription state back to zero, every socket collectable).
// Replay with WS_FUZZ_SEED=<seed>; WS_FUZZ_CASES sets the number of cases (sockets).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { LIVE_CLOSE_CODES, LIVE_ERROR_CODES, LIVE_TOPIC_FAMILIES, parseTopic } from '@tribuna/contracts/live';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildPost, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { MAX_CLIENT_FRAME_BYTES } from '../plugins/websocket.ts';
import { junkJson, nastyString, toJsonText } from '../../../test/support/server/fuzz/schemaArbitrary.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { parseClientMessage } from './routes.ts';

const SEED = Number(process.env.WS_FUZZ_SEED ?? 15_2025);
const CASES = Number(process.env.WS_FUZZ_CASES ?? 400);

/** A forced garbage collection (node's own, unlocked at run time: vitest's workers run without --expose-gc). */
function collectGarbage(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

// ─── frames ─────────────────────────────────────────────────────────────────────────────────────

/** One client frame as RFC 6455 §5.2 lays it out: masked (as a client must) unless told otherwise. */
function rawFrame({ opcode, payload, fin = true, rsv = 0, masked = true, claimedLength }: RawFrameSpec): Buffer {
  const length = claimedLength ?? payload.length;
  const head: number[] = [(fin ? 0x80 : 0) | (rsv << 4) | opcode];
  const maskBit = masked ? 0x80 : 0;
  let extended = Buffer.alloc(0);
  if (length < 126) head.push(maskBit | length);
  else if (length <= 0xffff) {
    head.push(maskBit | 126);
    extended = Buffer.alloc(2);
    extended.writeUInt16BE(length);
  } else {
    head.push(maskBit | 127);
    extended = Buffer.alloc(8);
    extended.writeBigUInt64BE(BigInt(length));
  }
  if (!masked) return Buffer.concat([Buffer.from(head), extended, payload]);
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([Buffer.from(head), extended, mask, body]);
}

interface RawFrameSpec {
  opcode: number;
  payload: Buffer;
  fin?: boolean;
  rsv?: number;
  masked?: boolean;
  /** A length other than the payload's (a frame announcing more than it sends). */
  claimedLength?: number;
}

/** One thing a fuzz case does on its socket. */
type Step =
  | { kind: 'text'; text: string }
  | { kind: 'bytes-as-text'; bytes: Buffer }
  | { kind: 'binary'; bytes: Buffer }
  | { kind: 'fragmented'; parts: string[] }
  | { kind: 'ping-frame'; bytes: Buffer }
  | { kind: 'raw'; name: string; frame: Buffer; fatal: boolean; desyncs: boolean };

/** Topics worth subscribing to: real ones of this app, and look-alikes. */
interface Rows {
  topics: string[];
}

const UNKNOWN_TYPES = ['Subscribe', 'SUBSCRIBE', 'sub', 'pong', 'hello', 'error', 'results', 'publish', '__proto__', 'constructor', '', ' subscribe'];

function topicArbitrary(rows: Rows): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...rows.topics) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...LIVE_TOPIC_FAMILIES, 'polls', 'Poll', 'feed ', 'x'), fc.constantFrom(':', '', '::', ': '), nastyString)
        .map(([f, sep, key]) => `${f}${sep}${key}`),
    },
    { weight: 2, arbitrary: nastyString },
    { weight: 1, arbitrary: fc.constantFrom(101, 1_000, 3_000).map((n) => `poll:${'a'.repeat(n)}`) },
    { weight: 1, arbitrary: fc.constantFrom(null, 1, true, [], {}, ['feed'], { toString: 'feed' }) },
    { weight: 1, arbitrary: fc.uuid().map((id) => `poll:${id.toUpperCase()}`) },
  );
}

/** A JSON text message: the protocol's own messages with garbage inside, unknown types, junk JSON. */
function messageArbitrary(rows: Rows): fc.Arbitrary<string> {
  const topic = topicArbitrary(rows);
  const type = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('subscribe', 'unsubscribe', 'ping') },
    { weight: 2, arbitrary: fc.constantFrom(...UNKNOWN_TYPES) },
    { weight: 1, arbitrary: nastyString },
  );
  const extra = fc.dictionary(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'topic', 'type', 'id'), fc.string({ maxLength: 8 })), junkJson, {
    maxKeys: 3,
  });
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ type, topic }).map((m) => toJsonText(m)) },
    { weight: 2, arbitrary: fc.tuple(type, topic, extra).map(([t, tp, x]) => toJsonText({ ...x, type: t, topic: tp })) },
    { weight: 2, arbitrary: junkJson.map(toJsonText) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '{"type":"subscribe","topic":"feed","__proto__":{"polluted":1}}',
        '{"type":"ping","type":"subscribe"}',
        `${'['.repeat(1_000)}${']'.repeat(1_000)}`,
        '{"type":"subscribe"',
        'null',
        '"ping"',
        '',
      ),
    },
    { weight: 2, arbitrary: nastyString },
  );
}

/** A well-formed message whose text is within the frame limit (the server's answer to it is checked). */
const fits = (text: string) => Buffer.byteLength(text) <= MAX_CLIENT_FRAME_BYTES;

/** Steps a socket survives (`survivable`), and steps after which the server must close it (`fatal`). */
function stepArbitraries(rows: Rows): { survivable: fc.Arbitrary<Step>; fatal: fc.Arbitrary<Step> } {
  const message = messageArbitrary(rows).filter(fits);
  const bytes = (max: number) => fc.uint8Array({ maxLength: max }).map((b) => Buffer.from(b));
  const invalidUtf8 = fc.constantFrom(
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xc0, 0xaf]),
    Buffer.from('{"type":"ping"}\xed\xa0\x80', 'latin1'),
    Buffer.from([0xe2, 0x82]),
  );
  const raw = (name: string, frame: Buffer, fatal: boolean, desyncs = false): Step => ({ kind: 'raw', name, frame, fatal, desyncs });
  const ping = Buffer.from('{"type":"ping"}');
  const survivable = fc.oneof(
    { weight: 30, arbitrary: message.map((text): Step => ({ kind: 'text', text })) },
    { weight: 4, arbitrary: bytes(200).map((b): Step => ({ kind: 'binary', bytes: b })) },
    // A message in continuation frames, within the limit in total.
    {
      weight: 3,
      arbitrary: fc.tuple(message, fc.integer({ min: 1, max: 6 })).map(([text, pieces]): Step => ({ kind: 'fragmented', parts: split(text, pieces) })),
    },
    { weight: 2, arbitrary: bytes(125).map((b): Step => ({ kind: 'ping-frame', bytes: b })) },
    { weight: 1, arbitrary: fc.constant(raw('whole frame, valid', rawFrame({ opcode: 1, payload: ping }), false)) },
  );
  const fatal = fc.oneof(
    { weight: 3, arbitrary: invalidUtf8.map((b): Step => ({ kind: 'bytes-as-text', bytes: b })) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(MAX_CLIENT_FRAME_BYTES + 1, 64 * 1024, 1024 * 1024)
        .map((n): Step => ({ kind: 'text', text: `{"type":"subscribe","topic":"${'x'.repeat(n)}"}` })),
    },
    // Continuation frames past the limit in total.
    {
      weight: 2,
      arbitrary: fc
        .tuple(message, fc.integer({ min: 2, max: 6 }))
        .map(([text, pieces]): Step => ({ kind: 'fragmented', parts: split(`${text}${' '.repeat(MAX_CLIENT_FRAME_BYTES)}`, pieces) })),
    },
    {
      weight: 8,
      arbitrary: fc.oneof(
        fc.constant(raw('unmasked frame', rawFrame({ opcode: 1, payload: ping, masked: false }), true)),
        fc.integer({ min: 1, max: 7 }).map((rsv) => raw(`reserved bits ${rsv}`, rawFrame({ opcode: 1, payload: ping, rsv }), true)),
        fc.constantFrom(3, 4, 5, 6, 7, 0xb, 0xc, 0xd, 0xe, 0xf).map((opcode) => raw(`opcode ${opcode}`, rawFrame({ opcode, payload: ping }), true)),
        fc.constant(raw('control frame over 125 bytes', rawFrame({ opcode: 9, payload: Buffer.alloc(126, 1) }), true)),
        fc.constant(raw('fragmented control frame', rawFrame({ opcode: 9, payload: Buffer.from('x'), fin: false }), true)),
        fc.constant(raw('continuation without a start', rawFrame({ opcode: 0, payload: ping }), true)),
        fc.constant(
          raw(
            'new message inside a fragmented one',
            Buffer.concat([rawFrame({ opcode: 1, payload: Buffer.from('{"ty'), fin: false }), rawFrame({ opcode: 1, payload: ping })]),
            true,
          ),
        ),
        fc.constant(raw('length of 2^53', rawFrame({ opcode: 1, payload: Buffer.alloc(0), claimedLength: 2 ** 53 }), true)),
        fc.constant(raw('close frame with a 1-byte payload', rawFrame({ opcode: 8, payload: Buffer.from([3]) }), true)),
        fc.constant(raw('close frame with an invalid code', rawFrame({ opcode: 8, payload: Buffer.from([0x03, 0xe7]) }), true)),
        fc.constant(raw('close frame with invalid UTF-8 reason', rawFrame({ opcode: 8, payload: Buffer.from([0x03, 0xe8, 0xff]) }), true)),
        // Announces more than it sends: the server waits for the rest (the case ends by dropping the connection).
        fc.constant(raw('truncated frame', rawFrame({ opcode: 1, payload: ping, claimedLength: 100 }), false, true)),
        fc.constant(raw('half a header', rawFrame({ opcode: 1, payload: ping }).subarray(0, 1), false, true)),
      ),
    },
  );
  return { survivable, fatal };
}

/** `text` cut into at most `pieces` parts (at least one). */
function split(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / pieces));
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += size) parts.push(text.slice(i, i + size));
  return parts.length > 0 ? parts : [''];
}

/** One case: who opens the socket, and what it sends; `churn` adds a burst of subscribe/unsubscribe pairs. */
interface Case {
  as: 'visitor' | 'fan' | 'admin';
  steps: Step[];
  churn: number;
}

function caseArbitrary(rows: Rows): fc.Arbitrary<Case> {
  const { survivable, fatal } = stepArbitraries(rows);
  return fc.record({
    as: fc.constantFrom('visitor', 'fan', 'admin'),
    // Frames the socket survives, then in half of the cases one it does not (it ends the case).
    steps: fc
      .tuple(fc.array(survivable, { minLength: 1, maxLength: 40 }), fc.option(fatal, { freq: 2, nil: undefined }))
      .map(([steps, last]) => (last ? [...steps, last] : steps)),
    churn: fc.oneof({ weight: 4, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 10, max: 60 }) }),
  });
}

// ─── the test ───────────────────────────────────────────────────────────────────────────────────

/** Close codes a socket may get for what a fuzz case sent (ws's own, and the live protocol's). */
const PROTOCOL_CLOSES = new Set([1002, 1007, 1009, LIVE_CLOSE_CODES.policyViolation]);
const KNOWN_SERVER_TYPES = new Set([
  'hello',
  'pong',
  'error',
  'results',
  'voters',
  'poll-status',
  'points-reset',
  'admin-dashboard',
  'abuse-scan',
  'notifications',
  'feed-post',
  'post-updated',
  'post-deleted',
  'post-reactions',
  'comment-created',
  'comment-updated',
  'comment-deleted',
  'comment-reactions',
]);

describe('fuzzing the live websocket', () => {
  let app: App;
  let database: Database;
  let baseUrl = '';
  const logs: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => void logs.push(line) });
  useListeningTestApp({ DEV_LOGIN: '1' }, (ready) => ({ app, database, baseUrl } = ready), { build: () => ({ logger }) });

  it(
    `answers or closes on every malformed frame, keeps serving others, and keeps nothing of closed sockets (${CASES} cases)`,
    { timeout: 600_000 },
    async () => {
      const gc = collectGarbage();
      const db = database.db;
      // The frame budget has its own tests (abuse.test.ts): widened here, so that one socket meets
      // many frames instead of being closed for its rate after 50.
      Object.assign(app.live.hub.settings, { frameBurst: 1_000_000, frameRefillPerSecond: 1_000_000 });
      const { poll } = await buildPoll(db);
      const closed = (await buildPoll(db, { status: 'closed' })).poll;
      const draft = (await buildPoll(db, { status: 'draft' })).poll;
      const fan = await buildUser(db);
      const someoneElse = await buildUser(db);
      const admin = await buildUser(db, { role: 'admin' });
      const post = await buildPost(db, someoneElse.id);
      const cookies = { visitor: undefined, fan: (await signIn(app, fan)).cookie, admin: (await signIn(app, admin, { level: 'aal2' })).cookie };
      const rows: Rows = {
        topics: [
          `poll:${poll.id}`,
          `poll:${closed.id}`,
          `poll:${draft.id}`,
          'feed',
          'admin',
          `post:${post.id}`,
          `user:${fan.id}`,
          `user:${someoneElse.id}`,
          `user:${admin.id}`,
        ],
      };
      const url = `${baseUrl.replace(/^http/, 'ws')}/ws`;

      // Every server-side socket, weakly: once closed, each must be collectable (nothing keeps it).
      const serverSockets: WeakRef<object>[] = [];
      app.websocketServer.on('connection', (socket: object) => serverSockets.push(new WeakRef(socket)));

      // A bystander watching a poll and the feed the whole time.
      const bystander = await openWs(url, { cookie: cookies.fan });
      bystander.send({ type: 'subscribe', topic: `poll:${poll.id}` });
      bystander.send({ type: 'subscribe', topic: 'feed' });
      await vi.waitFor(() => expect(app.live.stats().subscriptions).toBe(2));
      const baseline = { connections: 1, sockets: 1, subscriptions: 2, topics: 2, owing: 0 };

      const problems = new Map<string, { count: number; example: string }>();
      const problem = (kind: string, example: unknown) => {
        const known = problems.get(kind);
        if (known) known.count++;
        else
          problems.set(kind, {
            count: 1,
            example: JSON.stringify(example, (_k, v: unknown) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 80)}…(${v.length})` : v)).slice(
              0,
              600,
            ),
          });
      };
      const counts = { cases: 0, frames: 0, closedByServer: 0, errorsAnswered: 0, pongs: 0, invalidTopicsAnswered: 0 };

      async function runCase(fuzzCase: Case): Promise<void> {
        const cookie = cookies[fuzzCase.as];
        const client: WsTestClient = await openWs(url, cookie ? { cookie } : {});
        const tcp = client.tcp();
        let desynced = false;
        let fatal = false;
        let clientError: Error | null = null;
        // Subscribes of the contract naming no topic family: each is answered invalid-message (junk is ignored by design).
        const invalidTopics: string[] = [];
        const expectAnswer = (text: string) => {
          const message = parseClientMessage(Buffer.from(text), false);
          if (message?.type === 'subscribe' && parseTopic(message.topic) === null) invalidTopics.push(message.topic);
        };
        client.socket.on('error', (err) => (clientError = err));
        const send = (step: Step) => {
          counts.frames++;
          if (client.socket.readyState !== WebSocket.OPEN) return;
          switch (step.kind) {
            case 'text':
              if (!fits(step.text)) fatal = true;
              else expectAnswer(step.text);
              client.socket.send(step.text);
              return;
            case 'bytes-as-text':
              fatal = true;
              client.socket.send(step.bytes, { binary: false });
              return;
            case 'binary':
              client.socket.send(step.bytes, { binary: true });
              return;
            case 'fragmented':
              if (Buffer.byteLength(step.parts.join('')) > MAX_CLIENT_FRAME_BYTES) fatal = true;
              else expectAnswer(step.parts.join(''));
              step.parts.forEach((part, i) => client.socket.send(part, { fin: i === step.parts.length - 1 }));
              counts.frames += step.parts.length - 1;
              return;
            case 'ping-frame':
              client.socket.ping(step.bytes);
              return;
            case 'raw':
              if (desynced) return;
              if (step.fatal) fatal = true;
              if (step.desyncs) desynced = true;
              tcp.write(step.frame);
              return;
          }
        };
        for (const step of fuzzCase.steps) send(step);
        for (let i = 0; i < fuzzCase.churn; i++) {
          const topic = rows.topics[i % rows.topics.length]!;
          send({ kind: 'text', text: JSON.stringify({ type: 'subscribe', topic }) });
          send({ kind: 'text', text: JSON.stringify({ type: 'unsubscribe', topic }) });
        }

        if (!desynced && !fatal) {
          // Still open and answering: a ping sent after everything gets its pong (frames are handled in order).
          const from = client.messages.length;
          client.send({ type: 'ping' });
          counts.frames++;
          const answered = await Promise.race([
            client.waitFor((m) => m.type === 'pong', { from, timeoutMs: 20_000 }).then(() => true),
            client.closed.then(() => false),
          ]).catch(() => false);
          if (answered) {
            counts.pongs++;
            const refused = new Set(client.messages.flatMap((m) => (m.type === 'error' && m.code === 'invalid-message' ? [m.topic] : [])));
            const unanswered = invalidTopics.filter((topic) => !refused.has(topic));
            if (unanswered.length > 0) problem('a subscribe to a malformed topic was not answered invalid-message', unanswered);
            counts.invalidTopicsAnswered += invalidTopics.length;
          } else problem('no pong after frames that are not fatal', { steps: fuzzCase.steps, close: client.socket.readyState });
        }
        if (fatal && !desynced) {
          const close = await Promise.race([client.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 20_000))]);
          if (close === null) problem('a fatal frame did not close the socket', fuzzCase.steps);
          else if (!PROTOCOL_CLOSES.has(close.code)) problem(`closed with ${close.code} ${close.reason}`, fuzzCase.steps);
          else counts.closedByServer++;
        }
        // A socket left inside a frame would wait for the rest (and ws's close handshake for its 30 s timeout).
        if (desynced) {
          client.socket.terminate();
          await client.closed;
        } else await client.close();

        for (const message of client.messages) {
          const type = (message as { type?: unknown }).type;
          if (typeof type !== 'string' || !KNOWN_SERVER_TYPES.has(type)) problem(`unknown server message ${String(type)}`, message);
          if (message.type === 'error') {
            counts.errorsAnswered++;
            if (!(LIVE_ERROR_CODES as readonly string[]).includes(message.code)) problem(`error code ${message.code}`, message);
          }
        }
        if (clientError) problem(`client saw a protocol error from the server: ${(clientError as Error).message}`, fuzzCase.steps);

        // Others keep working: the bystander answers a ping.
        const from = bystander.messages.length;
        bystander.send({ type: 'ping' });
        await bystander.waitFor((m) => m.type === 'pong', { from, timeoutMs: 20_000 });
        counts.cases++;
      }

      const cases = fc.sample(caseArbitrary(rows), { seed: SEED, numRuns: CASES });
      const warmUp = Math.min(40, Math.floor(CASES / 4));
      let heapAfterWarmUp = 0;
      for (const [index, fuzzCase] of cases.entries()) {
        if (index % 20 === 0) await app.resetRateLimits();
        await runCase(fuzzCase);
        if (index + 1 === warmUp) {
          await vi.waitFor(() => expect(app.live.stats()).toMatchObject(baseline), { timeout: 20_000 });
          gc();
          heapAfterWarmUp = process.memoryUsage().heapUsed;
        }
      }

      // The server is alive and serving HTTP, the bystander still gets what its topics publish.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      app.live.hub.publish('feed', { type: 'fuzz-probe', topic: 'feed' });
      await bystander.waitFor((m) => (m as { type: string }).type === 'fuzz-probe');

      // Nothing of the fuzz sockets is left: counters back to the bystander alone, and every socket collectable.
      await vi.waitFor(() => expect(app.live.stats()).toMatchObject(baseline), { timeout: 20_000 });
      expect(app.websocketServer.clients.size).toBe(1);
      expect(app.live.connections.count()).toBe(1);
      let alive = serverSockets.length;
      for (let round = 0; round < 20 && alive > 1; round++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        gc();
        alive = serverSockets.filter((ref) => ref.deref() !== undefined).length;
      }
      const heapAtEnd = process.memoryUsage().heapUsed;
      const growthMiB = (heapAtEnd - heapAfterWarmUp) / 2 ** 20;

      console.info(
        `websocket fuzz (WS_FUZZ_SEED=${SEED}): ${counts.cases} cases (sockets), ${counts.frames} frames, ${counts.closedByServer} closed by the server for a protocol error, ` +
          `${counts.errorsAnswered} error answers (${counts.invalidTopicsAnswered} checked against malformed topics), ${counts.pongs} pongs after fuzzing; server sockets still reachable ${alive}/${serverSockets.length}; ` +
          `heap after warm-up ${(heapAfterWarmUp / 2 ** 20).toFixed(1)} MiB, at the end ${(heapAtEnd / 2 ** 20).toFixed(1)} MiB`,
      );
      const serverErrors = logs.filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
      await bystander.close();

      expect([...problems.entries()].map(([kind, { count, example }]) => `${kind} ×${count}: ${example}`)).toEqual([]);
      expect(serverErrors).toEqual([]);
      // Only the bystander's socket may still be reachable.
      expect(alive).toBeLessThanOrEqual(1);
      // Memory: a leak of per-socket state over hundreds of sockets and thousands of frames shows as
      // sockets kept alive above; the heap itself stays within a bound far below what went through.
      expect(growthMiB).toBeLessThan(24);
      expect(counts.cases).toBe(CASES);
    },
  );
});
