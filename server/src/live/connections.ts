import { addressKey } from '../http/buckets.ts';

export type ConnectionRefusal = 'address' | 'instance';

/**
 * Websocket connections open on this instance, in total and per client (addressKey: an IPv4
 * address, or an IPv6 /64, as the HTTP rate limits count them). A connection is counted from its
 * upgrade until its socket's close event, whatever closed it (the client, an error, a terminate,
 * the keep-alive); the map only holds clients with a connection open.
 */
export class ConnectionLimits {
  private readonly perAddress = new Map<string, number>();
  private total = 0;
  /** Connections refused since the start (either cap). */
  refused = 0;

  constructor(
    private readonly maxTotal: number,
    private readonly maxPerAddress: number,
  ) {}

  /** Counts a new connection from `ip`, or says which cap refuses it. Synchronous: exact under concurrent upgrades. */
  acquire(ip: string): ConnectionRefusal | null {
    const key = addressKey(ip);
    const current = this.perAddress.get(key) ?? 0;
    const refusal = current >= this.maxPerAddress ? 'address' : this.total >= this.maxTotal ? 'instance' : null;
    if (refusal) {
      this.refused++;
      return refusal;
    }
    this.perAddress.set(key, current + 1);
    this.total++;
    return null;
  }

  /** Once per acquired connection, when it closes. */
  release(ip: string): void {
    const key = addressKey(ip);
    const current = this.perAddress.get(key) ?? 0;
    if (current <= 1) this.perAddress.delete(key);
    else this.perAddress.set(key, current - 1);
    this.total--;
  }

  /** Open connections, in total and from one client. */
  count(ip?: string): number {
    return ip === undefined ? this.total : (this.perAddress.get(addressKey(ip)) ?? 0);
  }
}
