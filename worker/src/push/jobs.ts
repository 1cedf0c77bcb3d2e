import type { JobHandlers } from '../registry.ts';

// Placeholder until the push sender lands (issue 31): every push job fails loudly.
const notYet = async (): Promise<never> => {
  throw new Error('push jobs are not implemented yet');
};

export const pushJobs: Pick<JobHandlers, 'push.broadcast' | 'push.user' | 'push.deliver' | 'push.closing-soon' | 'push.sweep'> = {
  'push.broadcast': notYet,
  'push.user': notYet,
  'push.deliver': notYet,
  'push.closing-soon': notYet,
  'push.sweep': notYet,
};
