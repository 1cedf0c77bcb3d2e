// A shared host may run other guests on our cores (steal, /proc/stat): a measurement taken while
// that happened is not comparable with a quiet one, so it is taken again.

export interface NoisePolicy<T> {
  /** More stolen cores than this during a measurement makes it noisy. */
  limitCores: number;
  /** Noisy measurements taken again at most this many times; the last attempt is kept whatever its steal. */
  maxRetries: number;
  /** Called with each measurement set aside (to log and record it). */
  onNoisy(result: T, stolenCores: number): void | Promise<void>;
}

/** Cores the hypervisor stole during a CpuMeter window. */
export const stolenCores = (cpuCores: Record<string, unknown>): number => Number(cpuCores.steal ?? 0);

/** Runs `measure`, and again while the host stole more than the policy allows. */
export async function measureUntilQuiet<T extends { cpuCores: Record<string, unknown> }>(measure: () => Promise<T>, policy: NoisePolicy<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const result = await measure();
    const steal = stolenCores(result.cpuCores);
    if (steal <= policy.limitCores || attempt > policy.maxRetries) return result;
    await policy.onNoisy(result, steal);
  }
}
