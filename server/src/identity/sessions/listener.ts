import postgres from 'postgres';
import type { FastifyBaseLogger } from 'fastify';
import { AUTH_NOTIFY_CHANNEL, type SessionCache } from './cache.ts';

/** application_name of the LISTEN connection (lets an operator, or a test, find it in pg_stat_activity). */
export const LISTENER_APPLICATION_NAME = 'tribuna-auth-listener';

/** Retries of the LISTEN wait this long, doubling up to the maximum. */
const RETRY_INITIAL_MS = 250;
const RETRY_MAX_MS = 30_000;

/** postgres.js hands every NotificationResponse to `onnotify` (what its own sql.listen is built on); its types omit it. */
type ListenerOptions = postgres.Options<Record<string, never>> & { onnotify(channel: string, payload: string): void };

/**
 * Keeps one connection LISTENing on `tribuna_auth` and applies each notification to the session
 * cache. Its own connection (not the pool's) so that a drop is seen at once: the cache then serves
 * only fresh entries, the LISTEN is retried with exponential backoff (also when PostgreSQL is
 * unreachable at start), and the cache is flushed once it is back, since notifications sent
 * meanwhile are lost.
 */
export class SessionChangeListener {
  private readonly sql: postgres.Sql;
  private state: 'idle' | 'connecting' | 'listening' | 'waiting' = 'idle';
  private closed = false;
  /** The connection closed while a LISTEN was in flight: its success cannot be trusted. */
  private lostWhileConnecting = false;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    databaseUrl: string,
    private readonly cache: SessionCache,
    private readonly log: FastifyBaseLogger,
  ) {
    const options: ListenerOptions = {
      max: 1,
      max_lifetime: null,
      connect_timeout: 5,
      fetch_types: false,
      onnotice: () => {},
      connection: { application_name: LISTENER_APPLICATION_NAME },
      onnotify: (channel, payload) => {
        if (channel === AUTH_NOTIFY_CHANNEL) this.cache.applyNotification(payload);
      },
      onclose: () => this.onConnectionClosed(),
    };
    this.sql = postgres(databaseUrl, options);
  }

  /** Whether notifications are being received right now. */
  get listening(): boolean {
    return this.state === 'listening';
  }

  /** Makes the first attempt (the server starts either way; failures are retried in the background). */
  async start(): Promise<void> {
    this.cache.listenerDown(this);
    await this.connect();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.cache.listenerClosed(this);
    await this.sql.end({ timeout: 1 }).catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    this.state = 'connecting';
    this.lostWhileConnecting = false;
    try {
      await this.sql.unsafe(`LISTEN "${AUTH_NOTIFY_CHANNEL}"`);
    } catch (err) {
      if (!this.closed) this.retryLater(err);
      return;
    }
    if (this.closed) return;
    if (this.lostWhileConnecting) return this.retryLater(new Error('connection closed right after LISTEN'));
    if (this.failures > 0) this.log.info({ attempts: this.failures }, 'listening for session changes again; session cache flushed');
    this.state = 'listening';
    this.failures = 0;
    this.cache.listenerUp(this);
  }

  private onConnectionClosed(): void {
    if (this.state === 'connecting') this.lostWhileConnecting = true;
    if (this.state !== 'listening' || this.closed) return;
    this.retryLater(new Error('LISTEN connection closed'));
  }

  private retryLater(err: unknown): void {
    this.cache.listenerDown(this);
    this.state = 'waiting';
    const delay = Math.min(RETRY_MAX_MS, RETRY_INITIAL_MS * 2 ** this.failures);
    this.failures++;
    const log = this.failures === 1 ? this.log.warn.bind(this.log) : this.log.debug.bind(this.log);
    log({ err, retryInMs: delay }, 'not listening for session changes; cached sessions are served only briefly until it is back');
    // Jitter, so that every instance does not reconnect at the same moment.
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        void this.connect();
      },
      delay * (0.8 + Math.random() * 0.4),
    );
    this.retryTimer.unref();
  }
}
