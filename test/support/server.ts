import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app.ts';
import { testConfig } from './env.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** The real server (built web app included) listening on a free loopback port. */
export async function startServer(overrides: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const config = testConfig(overrides);
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { app, url: `http://127.0.0.1:${port}`, close: () => app.close() };
}
