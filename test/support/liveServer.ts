import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app.ts';
import { freePort } from '../../scripts/infra.ts';
import { testConfig } from './env.ts';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/**
 * The real server (built web app included) listening on a free loopback port, with PUBLIC_URL
 * pointing at it so OAuth redirects and same-origin checks see the address the browser uses.
 */
export async function startServer(overrides: Record<string, string | undefined> = {}): Promise<RunningServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({ PORT: String(port), PUBLIC_URL: url, ...overrides });
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port });
  return { app, url, close: () => app.close() };
}
