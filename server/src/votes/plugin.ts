import fp from 'fastify-plugin';
import { createVotesModule } from './module.ts';
import type { VotesContext } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The votes domain's context (votes/service.ts): the batching writer and the poll cache, for its routes. */
    votes: VotesContext;
  }
}

/**
 * The votes domain: its batching writer, the award jobs that follow committed batches and the daily
 * points reset (votes/module.ts). Domains close before the database: queued votes are written and
 * answered first. Routes only route (votes/routes.ts).
 */
export default fp(
  async (app) => {
    const { close, ...ctx } = createVotesModule(app);
    app.addHook('onClose', async () => close());
    app.decorate('votes', ctx);
  },
  { name: 'votes', dependencies: ['config', 'db', 'events', 'live', 'queues', 'polls'] },
);
