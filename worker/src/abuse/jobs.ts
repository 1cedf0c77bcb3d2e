import { channelName, LIVE_CHANNEL } from '@tribuna/contracts/live';
import type { JobHandlers } from '../registry.ts';
import { runAbuseScan } from './service.ts';

export const abuseJobs: Pick<JobHandlers, 'abuse.scan'> = {
  // Scheduled (no scanId: a row of its own) or asked for by an admin (the queued row scanId).
  'abuse.scan': async (payload, ctx) => {
    const channel = channelName(ctx.config.redisPrefix, LIVE_CHANNEL);
    const summary = await runAbuseScan(ctx.db, {
      ...(payload?.scanId ? { scanId: payload.scanId } : {}),
      publish: (event) => ctx.publish(channel, JSON.stringify(event)),
    });
    ctx.logger.info(summary, 'abuse scan finished');
    return summary;
  },
};
