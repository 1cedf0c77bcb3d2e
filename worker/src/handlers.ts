import type { JobHandlers } from './registry.ts';
import { abuseJobs } from './abuse/jobs.ts';
import { mediaJobs } from './media/jobs.ts';
import { pointsJobs } from './points/jobs.ts';
import { pushJobs } from './push/jobs.ts';
import { reportJobs } from './reports/jobs.ts';
import { sessionJobs } from './sessions/jobs.ts';
import { voteJobs } from './votes/jobs.ts';

/** Every job of the contracts with its handler; one spread per domain. */
export const handlers: JobHandlers = {
  ...reportJobs,
  ...pointsJobs,
  ...sessionJobs,
  ...voteJobs,
  ...mediaJobs,
  ...abuseJobs,
  ...pushJobs,
};
