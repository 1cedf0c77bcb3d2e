// Baseline: a bare postgres.js single-row INSERT loop, in its own process. `connections` async
// workers on a pool of as many connections, one row per statement, no transaction around it,
// for the round's duration. What PostgreSQL on this machine does without any application.
import { performance } from 'node:perf_hooks';
import postgres from 'postgres';
import { readParams, serve } from '../lib/child.ts';
import { newHistogram, recordMs, summarize } from '../lib/stats.ts';

interface Params {
  databaseUrl: string;
  pollId: string;
  userIds: string[];
  connections: number;
}

const params = readParams<Params>();
const sql = postgres(params.databaseUrl, {
  max: params.connections,
  idle_timeout: 0,
  connect_timeout: 10,
  onnotice: () => {},
  connection: { application_name: 'tribuna-bench-raw-insert' },
});

// Open every connection before the first round so connecting is not measured.
await Promise.all(Array.from({ length: params.connections }, () => sql`SELECT pg_sleep(0.05)`));

async function round(durationS: number) {
  const latency = newHistogram();
  let inserted = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  const startedAt = performance.now();
  const deadline = startedAt + durationS * 1000;
  const users = params.userIds;
  const worker = async (w: number) => {
    let i = w;
    while (performance.now() < deadline) {
      const userId = users[i % users.length]!;
      i += params.connections;
      const t0 = performance.now();
      try {
        await sql`INSERT INTO bench_raw (poll_id, user_id, points, created_at) VALUES (${params.pollId}, ${userId}, 1, now())`;
        inserted++;
        recordMs(latency, performance.now() - t0);
      } catch (err) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push((err as Error).message);
        if (errors > 1000) throw new Error(`raw INSERT loop failing: ${errorSamples.join(' | ')}`, { cause: err });
      }
    }
  };
  await Promise.all(Array.from({ length: params.connections }, (_, w) => worker(w)));
  const windowMs = performance.now() - startedAt;
  return {
    connections: params.connections,
    acknowledged: inserted,
    windowMs,
    perSecond: (inserted * 1000) / windowMs,
    errors,
    errorSamples,
    latency: summarize(latency),
  };
}

serve({
  run: async (message) => ({ type: 'result', result: await round((message as unknown as { durationS: number }).durationS) }),
  close: async () => {
    await sql.end({ timeout: 5 });
    return { type: 'closed' };
  },
});
