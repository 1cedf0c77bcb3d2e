// `npm run bench -- push` (issue 31): an admin's 'Notificar a los fans' to 100,000 devices, sent by
// the worker to the tests' local RFC 8030 push service (it checks VAPID and decrypts every payload),
// while fans vote. Figures: pushesPerSecond, lastDeliveryS, duplicates, and the vote rate during the
// broadcast ÷ without it, same run (votesDuringBroadcastRatio, target ≥ 0.9).
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '@tribuna/drizzle/client';
import { CpuMeter, postgresOf, postgresShared } from './lib/cpu.ts';
import { createFixtures } from './lib/fixtures.ts';
import { createBenchEnv, destroyBenchEnv, startTribuna, type Tribuna } from './lib/infra.ts';
import { log } from './lib/log.ts';
import { machineInfo } from './lib/machine.ts';
import { spawnTs, type BenchChild } from './lib/processes.ts';
import { sessionCookie } from './lib/sessionCookie.ts';
import { median, round } from './lib/stats.ts';
import { paramsFile } from './lib/workdir.ts';
import type { BenchOutcome } from './votes.ts';

export interface PushOptions {
  /** Devices the broadcast goes to (one fan each). */
  subscriptions: number;
  /** Fans voting during the run, and the load's connections. */
  voters: number;
  connections: number;
  /** Votes are measured in slices of this many seconds: before, during and after the broadcast. */
  sliceS: number;
  /** Slices before and after the broadcast (each). */
  baselineSlices: number;
  /** The broadcast is given up on after this long. */
  limitS: number;
}

export const DEFAULT_PUSH_OPTIONS: PushOptions = {
  subscriptions: 100_000,
  voters: 2000,
  connections: 64,
  sliceS: 5,
  baselineSlices: 3,
  limitS: 900,
};

const TARGETS = { votesDuringBroadcastRatio: 0.9, duplicates: 0 };

interface Stats {
  requests: number;
  delivered: number;
  refused: Record<string, number>;
  devices: number;
  duplicates: number;
  firstAt: number | null;
  lastAt: number | null;
}

interface Slice {
  phase: 'before' | 'during' | 'after';
  startedAt: number;
  endedAt: number;
  perSecond: number;
  p99Ms: number;
  errors: number;
  /** Pushes the service accepted during the slice. */
  pushes: number;
  cpuCores: Record<string, unknown>;
}

export async function runPushBenchmark(options: PushOptions = DEFAULT_PUSH_OPTIONS): Promise<BenchOutcome> {
  const failures: string[] = [];
  log('push: creating the bench database and fixtures');
  const env = await createBenchEnv('_push');
  const children: BenchChild[] = [];
  let tribuna: Tribuna | null = null;
  const subscriptionsFile = join(tmpdir(), `${env.name}-subscriptions.jsonl`);
  const vapidKeysFile = join(tmpdir(), `${env.name}-vapid.json`);
  try {
    const fixtures = await createFixtures(env.databaseUrl, options.voters, {
      ingest: { title: 'Benchmark: votes during a broadcast', maxPointsPerUser: 1000, dailyReset: false, options: 6 },
      announced: { title: '¡Gran final! ¿Quién se queda?', maxPointsPerUser: 1, dailyReset: false, options: 6 },
    });
    const poll = fixtures.polls.ingest!;
    const announced = fixtures.polls.announced!;
    const admin = fixtures.users[0]!;

    log(`push: starting the local push service and creating ${options.subscriptions} devices (a P-256 key pair each)`);
    const pushService = spawnTs(
      'push-service',
      'bench/load/push-service.ts',
      [paramsFile('push-service', { count: options.subscriptions, subscriptionsFile })],
      {
        ipc: true,
      },
    );
    children.push(pushService);
    await pushService.next('ready', 600_000);
    const { origin } = (await pushService.request({ type: 'origin' }, 'origin', 10_000)) as unknown as { origin: string };

    const seedStarted = Date.now();
    await seedDevices(env.databaseUrl, admin.id, subscriptionsFile);
    log(`push: ${options.subscriptions} fans with a device each stored in ${round((Date.now() - seedStarted) / 1000, 1)} s; starting server and worker`);

    // Outside production: the local push service's origin is accepted as an endpoint only through
    // PUSH_TEST_ENDPOINT_ORIGINS, which a production configuration refuses. Both kinds of slices run
    // on this same server, so the ratio compares like with like.
    tribuna = await startTribuna(env, {
      env: { NODE_ENV: 'development', PUSH_TEST_ENDPOINT_ORIGINS: origin, VAPID_KEYS_FILE: vapidKeysFile },
    });

    const votesLoad = spawnTs(
      'votes-load',
      'bench/load/http-load.ts',
      [
        paramsFile('votes-load', {
          mode: 'votes',
          baseUrl: tribuna.baseUrl,
          connections: options.connections,
          pollId: poll.id,
          optionIds: poll.optionIds,
          users: fixtures.users.map((u) => ({ token: u.token, fingerprint: u.fingerprint, address: u.address })),
        }),
      ],
      { ipc: true },
    );
    children.push(votesLoad);
    await votesLoad.next('ready', 30_000);
    const meter = () =>
      new CpuMeter({
        server: () => [tribuna!.server.pid],
        worker: () => [tribuna!.worker.pid],
        postgres: postgresOf(env.name),
        postgresShared,
        redis: { comm: 'redis-server' },
        pushService: () => [pushService.pid],
        load: () => [votesLoad.pid],
        orchestrator: () => [process.pid],
      });
    const stats = async () => (await pushService.request({ type: 'stats' }, 'stats', 60_000)) as unknown as Stats;

    log('push: warm-up (votes, not reported)');
    await votesLoad.request({ type: 'run', durationS: 5 }, 'result', 90_000);

    const slices: Slice[] = [];
    const slice = async (phase: Slice['phase']): Promise<Slice> => {
      const before = (await stats()).delivered;
      const cpu = meter();
      cpu.start();
      const startedAt = Date.now();
      const reply = (await votesLoad.request({ type: 'run', durationS: options.sliceS }, 'result', options.sliceS * 1000 + 90_000)) as unknown as {
        result: { perSecond: number; latency: { p99Ms: number }; errors?: number; non2xx?: number };
      };
      const endedAt = Date.now();
      const cpuCores = cpu.stop();
      const after = await stats();
      const s: Slice = {
        phase,
        startedAt,
        endedAt,
        perSecond: round(reply.result.perSecond, 0),
        p99Ms: round(reply.result.latency.p99Ms, 2),
        errors: (reply.result.errors ?? 0) + (reply.result.non2xx ?? 0),
        pushes: after.delivered - before,
        cpuCores,
      };
      slices.push(s);
      log(`push: ${phase.padEnd(6)} votes ${s.perSecond}/s p99 ${s.p99Ms} ms, ${s.pushes} pushes in the slice; cpu ${JSON.stringify(cpuCores)}`);
      return s;
    };

    for (let i = 0; i < options.baselineSlices; i++) await slice('before');

    log(`push: 'Notificar a los fans' for poll ${announced.id} (admin route), then votes slices until the last device has it`);
    const notifiedAt = Date.now();
    const notify = await fetch(`${tribuna.baseUrl}/api/admin/polls/${announced.id}/notify`, {
      method: 'POST',
      headers: { cookie: sessionCookie(admin.token), origin: tribuna.publicUrl, 'x-requested-with': 'XMLHttpRequest', 'x-forwarded-for': admin.address },
    });
    if (notify.status !== 202) throw new Error(`notify answered ${notify.status}: ${await notify.text()}`);
    while ((await stats()).delivered < options.subscriptions && Date.now() - notifiedAt < options.limitS * 1000) await slice('during');
    const final = await stats();
    if (final.delivered < options.subscriptions) failures.push(`only ${final.delivered} of ${options.subscriptions} pushes delivered in ${options.limitS} s`);
    for (let i = 0; i < options.baselineSlices; i++) await slice('after');

    const lastDeliveryS = final.lastAt === null ? null : round((final.lastAt - notifiedAt) / 1000, 2);
    const pushesPerSecond = lastDeliveryS ? round(final.delivered / lastDeliveryS, 0) : 0;
    // A slice counts as "during" only if the broadcast was delivering from its start to its end.
    const during = slices.filter((s) => s.phase === 'during' && final.lastAt !== null && s.endedAt <= final.lastAt);
    const without = slices.filter((s) => s.phase !== 'during');
    const votesWithoutBroadcastPerSecond = median(without.map((s) => s.perSecond));
    const votesDuringBroadcastPerSecond = during.length ? median(during.map((s) => s.perSecond)) : null;
    const votesDuringBroadcastRatio = votesDuringBroadcastPerSecond === null ? null : round(votesDuringBroadcastPerSecond / votesWithoutBroadcastPerSecond, 3);
    if (final.duplicates > 0) failures.push(`${final.duplicates} pushes arrived twice`);

    const database = createDatabase(env.databaseUrl, { max: 1, applicationName: 'tribuna-bench-push' });
    const [broadcast] = await database.sql<{ status: string; total: number; sent: number; gone: number; failed: number }[]>`
      SELECT status, total, sent, gone, failed FROM push_broadcasts WHERE poll_id = ${announced.id}`;
    await database.close();
    if (broadcast?.sent !== options.subscriptions) failures.push(`the broadcast row says ${broadcast?.sent ?? 0} sent of ${options.subscriptions}`);

    const json = {
      subscriptions: options.subscriptions,
      pushesPerSecond,
      lastDeliveryS,
      duplicates: final.duplicates,
      devicesReached: final.devices,
      requests: final.requests,
      refused: final.refused,
      votesWithoutBroadcastPerSecond,
      votesDuringBroadcastPerSecond,
      votesDuringBroadcastRatio,
      duringSlices: during.length,
      broadcast,
      targets: TARGETS,
      meetsTargets: {
        votesDuringBroadcastRatio: votesDuringBroadcastRatio !== null && votesDuringBroadcastRatio >= TARGETS.votesDuringBroadcastRatio,
        duplicates: final.duplicates === 0,
      },
      method: {
        broadcast: `${options.subscriptions} fans with one device each (a P-256 key pair and auth secret made by the local push service, test/support/pushService.ts, in its own process; it verifies each request's VAPID JWT and decrypts every aes128gcm payload). An admin's POST /api/admin/polls/:pollId/notify starts the broadcast (a push_broadcasts row and its job through the outbox); the worker lists the devices and sends. lastDeliveryS = the service's last accepted push − the moment the admin's request was sent; pushesPerSecond = pushes accepted / lastDeliveryS; duplicates = pushes that arrived more than once at a device with the same payload id.`,
        votes: `Closed-loop votes (bench/load/http-load.ts, ${options.connections} connections, ${options.voters} fans, points poll) measured in ${options.sliceS} s slices: ${options.baselineSlices} before the broadcast, slices while it runs, ${options.baselineSlices} after. votesDuringBroadcastRatio = median votes/s of the slices that ended before the last push arrived ÷ median of the before and after slices.`,
        server:
          'server and worker as startTribuna starts them (node --max-semi-space-size=16, LOG_LEVEL=warn, TRUST_PROXY=loopback) but NODE_ENV=development: PUSH_TEST_ENDPOINT_ORIGINS, the only way to point the worker at a local push service, is refused in production.',
      },
      slices: slices.map((s) => ({ ...s, startedAt: new Date(s.startedAt).toISOString(), endedAt: new Date(s.endedAt).toISOString() })),
      machine: machineInfo(),
      measuredAt: new Date().toISOString(),
    };
    const table: [string, string][] = [
      ['devices / pushes delivered', `${options.subscriptions} / ${final.delivered}`],
      ['pushesPerSecond', `${pushesPerSecond}`],
      ['lastDeliveryS', `${lastDeliveryS}`],
      ['duplicates', `${final.duplicates}`],
      ['votes/s without / during the broadcast', `${votesWithoutBroadcastPerSecond} / ${votesDuringBroadcastPerSecond}`],
      ['votesDuringBroadcastRatio (target ≥ 0.9)', `${votesDuringBroadcastRatio}`],
    ];
    return { name: 'push', json, table, failures };
  } finally {
    await Promise.allSettled(children.map((c) => c.stop()));
    if (tribuna) await tribuna.stop();
    await rm(subscriptionsFile, { force: true });
    await rm(vapidKeysFile, { force: true });
    await destroyBenchEnv(env);
  }
}

/** One profile per device (the admin's fixtures aside) and its push subscription, in chunks. */
async function seedDevices(databaseUrl: string, adminId: string, file: string): Promise<void> {
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  const database = createDatabase(databaseUrl, { max: 1, applicationName: 'tribuna-bench-push-seed' });
  try {
    await database.sql`UPDATE profiles SET role = 'admin' WHERE id = ${adminId}`;
    const CHUNK = 5000;
    for (let start = 0; start < lines.length; start += CHUNK) {
      const subs = lines.slice(start, start + CHUNK).map((line) => JSON.parse(line) as { endpoint: string; keys: { p256dh: string; auth: string } });
      const ids = await database.sql<{ id: string }[]>`
        INSERT INTO profiles (display_name, username)
        SELECT 'Fan push ' || n, 'push_fan_' || n FROM generate_series(${start + 1}::int, ${start + subs.length}::int) AS n
        RETURNING id`;
      await database.sql`
        INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, browser)
        SELECT * FROM unnest(${ids.map((r) => r.id)}::uuid[], ${subs.map((s) => s.endpoint)}::text[], ${subs.map((s) => s.keys.p256dh)}::text[],
                             ${subs.map((s) => s.keys.auth)}::text[], ${subs.map(() => 'Chrome en Android')}::text[])`;
    }
  } finally {
    await database.close();
  }
}
