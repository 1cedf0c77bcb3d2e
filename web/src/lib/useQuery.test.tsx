import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useQuery } from './useQuery';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('useQuery', () => {
  it('goes loading → ready, and refetches on demand', async () => {
    const load = vi.fn(async () => 'one');
    const { result } = renderHook(() => useQuery(['k'], load));
    expect(result.current.status).toBe('loading');
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'one' }));
    load.mockResolvedValueOnce('two');
    act(() => result.current.refetch());
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'two' }));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('reports an error (and tells onError), then recovers on refetch', async () => {
    const onError = vi.fn();
    const load = vi.fn().mockRejectedValueOnce(new Error('down')).mockResolvedValueOnce('back');
    const { result } = renderHook(() => useQuery(['k'], load, { onError }));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(onError).toHaveBeenCalledTimes(1);
    act(() => result.current.refetch());
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'back' }));
  });

  it('aborts a superseded load and never lets its late answer overwrite the newer one', async () => {
    const slow = deferred<string>();
    const signals: AbortSignal[] = [];
    const load = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      return signals.length === 1 ? slow.promise : Promise.resolve('new');
    });
    const { result, rerender } = renderHook(({ id }) => useQuery([id], load), { initialProps: { id: 'a' } });
    rerender({ id: 'b' });
    await waitFor(() => expect(result.current).toMatchObject({ status: 'ready', data: 'new' }));
    expect(signals[0]!.aborted).toBe(true);
    slow.resolve('old');
    await Promise.resolve();
    expect(result.current.data).toBe('new');
  });

  it('loads nothing while disabled, and lets a mutation replace the data', async () => {
    const load = vi.fn(async () => ({ n: 1 }));
    const { result, rerender } = renderHook(({ enabled }) => useQuery(['k'], load, { enabled }), { initialProps: { enabled: false } });
    expect(result.current.status).toBe('idle');
    expect(load).not.toHaveBeenCalled();
    rerender({ enabled: true });
    await waitFor(() => expect(result.current.data).toEqual({ n: 1 }));
    act(() => result.current.setData((current) => ({ n: current.n + 1 })));
    expect(result.current.data).toEqual({ n: 2 });
  });
});
