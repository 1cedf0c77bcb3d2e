import { describe, expect, it, vi } from 'vitest';
import { UnrecoverableError } from 'bullmq';
import { JOB_NAMES } from '@tribuna/contracts/jobs';
import type { JobContext } from './context.ts';
import { handlers } from './handlers.ts';
import { assertComplete, createRegistry, InvalidJobPayloadError, UnknownJobError, type JobHandlers } from './registry.ts';

const ctx = {} as JobContext;

describe('job registry', () => {
  it('has a handler for every job name of the contracts', () => {
    expect(() => assertComplete(handlers)).not.toThrow();
    expect(createRegistry(handlers).jobNames).toEqual(JOB_NAMES);
  });

  it('refuses to be built when a job name has no handler, naming it', () => {
    const { ['reports.aggregate-day']: _missing, ...incomplete } = handlers;
    expect(() => createRegistry(incomplete)).toThrow(/no handler for "reports\.aggregate-day"/);
  });

  it('refuses handlers for job names the contracts do not know', () => {
    const extra = { ...handlers, 'reports.typo': async () => null } as unknown as JobHandlers;
    expect(() => createRegistry(extra)).toThrow(/unknown jobs: "reports\.typo"/);
  });

  it('dispatches by name with the payload and context', async () => {
    const seen: unknown[] = [];
    const registry = createRegistry({
      ...handlers,
      'reports.aggregate-day': async (payload, context) => {
        seen.push(payload, context);
        return 'ok';
      },
    });
    await expect(registry.dispatch('reports.aggregate-day', { day: '2025-01-15' }, ctx)).resolves.toBe('ok');
    expect(seen).toEqual([{ day: '2025-01-15' }, ctx]);
  });

  it('fails an unknown job name with a clear, non-retryable error', async () => {
    const registry = createRegistry(handlers);
    const dispatch = registry.dispatch('reports.nope', {}, ctx);
    await expect(dispatch).rejects.toBeInstanceOf(UnknownJobError);
    await expect(registry.dispatch('reports.nope', {}, ctx)).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(registry.dispatch('reports.nope', {}, ctx)).rejects.toThrow('No handler for job "reports.nope"');
  });

  it('fails a job whose payload is not the contract without running its handler, for good', async () => {
    const ran = vi.fn(async () => 'ran');
    const registry = createRegistry({ ...handlers, 'points.award-votes': ran });
    for (const bad of [{}, { day: 'yesterday', voters: [] }, { day: '2025-01-15', voters: [{ userId: 1 }] }, null]) {
      const dispatch = registry.dispatch('points.award-votes', bad, ctx);
      await expect(dispatch).rejects.toBeInstanceOf(InvalidJobPayloadError);
      await expect(registry.dispatch('points.award-votes', bad, ctx)).rejects.toBeInstanceOf(UnrecoverableError);
    }
    await expect(
      registry.dispatch(
        'points.award-votes',
        { day: '2025-01-15', voters: [{ userId: '123e4567-e89b-42d3-a456-426614174000', pollId: '123e4567-e89b-42d3-a456-426614174001' }] },
        ctx,
      ),
    ).resolves.toBe('ran');
    expect(ran).toHaveBeenCalledTimes(1);
  });
});
