import { UnrecoverableError } from 'bullmq';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import type { TSchema } from '@sinclair/typebox';
import { JOB_NAMES, JOB_PAYLOADS, type JobName, type JobPayloads } from '@tribuna/contracts/jobs';
import type { JobContext } from './context.ts';

export type JobHandler<K extends JobName> = (payload: JobPayloads[K], ctx: JobContext) => Promise<unknown>;
export type JobHandlers = { [K in JobName]: JobHandler<K> };

/** Fails the job at once: retrying a job nobody can run would only repeat the failure. */
export class UnknownJobError extends UnrecoverableError {
  constructor(readonly jobName: string) {
    super(`No handler for job "${jobName}": it is not one of ${JOB_NAMES.join(', ')}`);
    this.name = 'UnknownJobError';
  }
}

/** Fails the job at once: a payload that is not the contract fails the same way on every attempt. */
export class InvalidJobPayloadError extends UnrecoverableError {
  constructor(
    readonly jobName: string,
    readonly problem: string,
  ) {
    super(`Invalid payload for job "${jobName}": ${problem}`);
    this.name = 'InvalidJobPayloadError';
  }
}

/** Each job's payload schema, compiled once. */
const payloadChecks = new Map<string, TypeCheck<TSchema>>(
  Object.entries(JOB_PAYLOADS).map(([name, schema]) => [name, TypeCompiler.Compile(schema as TSchema)]),
);

export interface Registry {
  readonly jobNames: readonly JobName[];
  has(name: string): name is JobName;
  /**
   * Runs the handler of `name` once its payload passed the contract's schema; an unknown name fails
   * with UnknownJobError, an invalid payload with InvalidJobPayloadError (both never retried).
   */
  dispatch(name: string, payload: unknown, ctx: JobContext): Promise<unknown>;
}

/**
 * Refuses a handler map that misses any job name of the contracts (or names one that does not
 * exist), so a job added to the contracts cannot be enqueued without something to run it.
 */
export function assertComplete(handlers: Partial<Record<string, unknown>>): asserts handlers is JobHandlers {
  const missing = JOB_NAMES.filter((name) => typeof handlers[name] !== 'function');
  if (missing.length > 0) {
    throw new Error(`Job handler registry is incomplete: no handler for ${missing.map((n) => `"${n}"`).join(', ')}`);
  }
  const known = new Set<string>(JOB_NAMES);
  const unknown = Object.keys(handlers).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new Error(`Job handler registry names unknown jobs: ${unknown.map((n) => `"${n}"`).join(', ')}`);
  }
}

export function createRegistry(handlers: Partial<JobHandlers>): Registry {
  assertComplete(handlers);
  const table = new Map<string, (payload: unknown, ctx: JobContext) => Promise<unknown>>(
    JOB_NAMES.map((name) => [name, handlers[name] as (payload: unknown, ctx: JobContext) => Promise<unknown>]),
  );
  return {
    jobNames: JOB_NAMES,
    has: (name: string): name is JobName => table.has(name),
    async dispatch(name, payload, ctx) {
      const handler = table.get(name);
      if (!handler) throw new UnknownJobError(name);
      const check = payloadChecks.get(name)!;
      if (!check.Check(payload)) {
        const first = check.Errors(payload).First();
        throw new InvalidJobPayloadError(name, first ? `${first.path || '/'} ${first.message}` : 'does not match its schema');
      }
      return handler(payload, ctx);
    },
  };
}
