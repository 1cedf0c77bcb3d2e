import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import { testConfig } from '../env.ts';
import { buildApp, type App } from '../../../server/src/app.ts';
import type { TestEnv } from './harness.ts';

/**
 * A TCP forwarder in front of a real PostgreSQL or Redis, so a test can take the dependency
 * "down" (stop() closes the listener and cuts every connection) and bring it back on the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** A proxy to the host and port of a postgres:// or redis:// URL. */
  static for(url: string): TcpProxy {
    const u = new URL(url);
    return new TcpProxy(u.hostname, Number(u.port || (u.protocol.startsWith('redis') ? 6379 : 5432)));
  }

  async start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** `url` with its host and port replaced by this proxy's. */
  proxiedUrl(url: string): string {
    const u = new URL(url);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }
}

export interface ProxiedTestApp {
  app: App;
  /** In front of this run's PostgreSQL: stop() takes it down, start() brings it back. */
  pgProxy: TcpProxy;
  /** In front of this run's Redis. */
  redisProxy: TcpProxy;
}

/**
 * One app (test configuration plus `env`) reaching PostgreSQL and Redis through a TcpProxy each,
 * so the tests can take either dependency down; the app and both proxies are closed at the end.
 */
export function useProxiedTestApp(env: TestEnv, onReady: (ready: ProxiedTestApp) => void): void {
  const base = testConfig();
  const pgProxy = TcpProxy.for(base.databaseUrl);
  const redisProxy = TcpProxy.for(base.redisUrl);
  let app: App | undefined;
  beforeAll(async () => {
    await pgProxy.start();
    await redisProxy.start();
    app = await buildApp(
      testConfig({
        DATABASE_URL: pgProxy.proxiedUrl(base.databaseUrl),
        REDIS_URL: redisProxy.proxiedUrl(base.redisUrl),
        ...env,
      }),
    );
    onReady({ app, pgProxy, redisProxy });
  });
  afterAll(async () => {
    await app?.close();
    await pgProxy.stop();
    await redisProxy.stop();
  });
}
