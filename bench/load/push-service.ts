// The push benchmark's push service, in its own process: the tests' local RFC 8030 push service
// (test/support/pushService.ts: it checks VAPID and decrypts every payload), with `count` devices
// whose subscriptions are written to `subscriptionsFile` (one JSON line each) for the orchestrator to
// store. Answers `stats` with what it received.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import { once } from 'node:events';
import { startPushService } from '../../test/support/pushService.ts';
import { readParams, serve } from '../lib/child.ts';

interface Params {
  count: number;
  subscriptionsFile: string;
}

const params = readParams<Params>();

// The push service stands for the browsers' push services (Google's, Mozilla's, Apple's), which run
// on their machines, not ours: on this shared machine it runs in Linux's idle scheduling class
// (every thread), so its decryption takes only CPU nothing else wants, and the vote rate measures
// what Tribuna's own work costs.
try {
  setPriority(19);
  const chrt = ['/usr/bin/chrt', '/bin/chrt'].find((path) => existsSync(path));
  if (chrt) execFileSync(chrt, ['--all-tasks', '--idle', '-p', '0', String(process.pid)], { stdio: 'ignore' });
} catch {
  // Not Linux: it runs niced only.
}
const service = await startPushService();
const out = createWriteStream(params.subscriptionsFile);
for (let i = 0; i < params.count; i++) {
  const line = `${JSON.stringify(service.newSubscription())}\n`;
  if (!out.write(line)) await once(out, 'drain');
}
out.end();
await once(out, 'finish');

/** Per payload id and device: how many times the same push arrived (more than once: a duplicate). */
function stats() {
  const received = service.received();
  const copies = new Map<string, number>();
  let first = Infinity;
  let last = 0;
  for (const push of received) {
    const id = (push.data as { id?: unknown } | null)?.id;
    const key = `${push.endpoint} ${typeof id === 'string' ? id : push.text}`;
    copies.set(key, (copies.get(key) ?? 0) + 1);
    first = Math.min(first, push.receivedAt);
    last = Math.max(last, push.receivedAt);
  }
  let duplicates = 0;
  for (const n of copies.values()) duplicates += n - 1;
  const devices = new Set(received.map((push) => push.endpoint)).size;
  return { type: 'stats', ...service.counts(), devices, duplicates, firstAt: received.length ? first : null, lastAt: received.length ? last : null };
}

serve({
  stats: () => stats(),
  origin: () => ({ type: 'origin', origin: service.origin }),
  close: async () => {
    await service.close();
    return { type: 'closed' };
  },
});
