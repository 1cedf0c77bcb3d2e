// The part of autocannon 9's API the benchmarks use (the package ships no type declarations).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  export interface RequestContext {
    [key: string]: unknown;
  }

  export interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  export interface AutocannonRequest extends RequestParams {
    setupRequest?: (req: RequestParams, context: RequestContext) => RequestParams | null;
    onResponse?: (status: number, body: string, context: RequestContext, headers: Record<string, string>) => void;
  }

  /** The connection object autocannon hands to setupClient (internal fields we rely on). */
  export interface AutocannonClient extends EventEmitter {
    reqsMade: number;
    responseMax: number | undefined;
    destroyed: boolean;
    destroy(): void;
  }

  export interface Options extends RequestParams {
    url: string;
    connections?: number;
    duration?: number;
    amount?: number;
    pipelining?: number;
    timeout?: number;
    bailout?: number;
    requests?: AutocannonRequest[];
    setupClient?: (client: AutocannonClient) => void;
    title?: string;
  }

  export interface Stats {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p0_001: number;
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    p99_9: number;
    [key: string]: number;
  }

  export interface Result {
    title?: string;
    url: string;
    connections: number;
    duration: number;
    start: Date;
    finish: Date;
    errors: number;
    timeouts: number;
    non2xx: number;
    resets: number;
    mismatches: number;
    '1xx': number;
    '2xx': number;
    '3xx': number;
    '4xx': number;
    '5xx': number;
    statusCodeStats: Record<string, { count: number }>;
    latency: Stats;
    requests: Stats;
    throughput: Stats;
  }

  export interface Instance extends EventEmitter {
    stop(): void;
  }

  function autocannon(options: Options, callback: (err: Error | null, result: Result) => void): Instance;
  export default autocannon;
}
