/** Thrown by a check: stop waiting now (e.g. the process being waited for has exited). */
export class GiveUp extends Error {}

/** Polls `check` until it answers true (or a truthy value), or fails after `timeoutMs`. */
export async function waitUntil<T>(check: () => Promise<T> | T, { timeoutMs = 20_000, intervalMs = 100, what = 'condition' } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      lastError = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
