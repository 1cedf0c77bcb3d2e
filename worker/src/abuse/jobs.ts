import type { JobHandlers } from '../registry.ts';
import { runAbuseScan } from './service.ts';

export const abuseJobs: Pick<JobHandlers, 'abuse.scan'> = {
  // Scheduled (no scanId: a row of its own) or asked for by an admin (the queued row scanId).
  'abuse.scan': async (payload, ctx) => {
    const summary = await runAbuseScan(ctx.db, {
      ...(payload?.scanId ? { scanId: payload.scanId } : {}),
      publish: (event) => ctx.publishEvent('abuse.scan-progress', event),
    });
    ctx.logger.info(summary, 'abuse scan finished');
    return summary;
  },
};
