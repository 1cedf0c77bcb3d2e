import type { JobContext } from '../context.ts';
import type { JobHandlers } from '../registry.ts';
import { pushRuntime, runBroadcast, runClosingSoon, runDeliver, runSweep, runUserPush, type PushRuntime } from './service.ts';

/** The process's push sender, or null (and a warning) when web push is off: production without VAPID keys. */
async function runtimeOf(ctx: JobContext): Promise<PushRuntime | null> {
  const runtime = await pushRuntime(ctx.config);
  if (!runtime) ctx.logger.warn('web push is off (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set): push job skipped');
  return runtime;
}

const skipped = { skipped: 'web push is off' } as const;

export const pushJobs: Pick<JobHandlers, 'push.broadcast' | 'push.user' | 'push.deliver' | 'push.closing-soon' | 'push.sweep'> = {
  'push.broadcast': async ({ broadcastId }, ctx) => {
    const runtime = await runtimeOf(ctx);
    return runtime ? runBroadcast(ctx.db, runtime.sender, broadcastId, ctx.logger) : skipped;
  },
  'push.user': async ({ userId }, ctx) => {
    const runtime = await runtimeOf(ctx);
    return runtime ? runUserPush(ctx.db, runtime.sender, userId, ctx.logger) : skipped;
  },
  'push.deliver': async (_payload, ctx) => {
    const runtime = await runtimeOf(ctx);
    return runtime ? runDeliver(ctx.db, runtime.sender, ctx.logger) : skipped;
  },
  'push.closing-soon': async (_payload, ctx) => {
    const runtime = await runtimeOf(ctx);
    return runtime ? runClosingSoon(ctx.db, runtime.sender, ctx.logger) : skipped;
  },
  'push.sweep': async (_payload, ctx) => {
    const runtime = await runtimeOf(ctx);
    return runtime ? runSweep(ctx.db, runtime.sender, ctx.logger) : skipped;
  },
};
