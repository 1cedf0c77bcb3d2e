import fp from 'fastify-plugin';
import type { Config } from '@tribuna/contracts/config';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

export interface ConfigPluginOptions {
  config: Config;
}

/** Makes the parsed environment available as `app.config` to every plugin and route. */
export default fp<ConfigPluginOptions>(
  async (app, { config }) => {
    app.decorate('config', config);
  },
  { name: 'config' },
);
