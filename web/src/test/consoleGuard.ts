import { afterEach, beforeEach, vi } from 'vitest';

/**
 * Fails a test that writes to console.error, console.warn or console.debug without saying so: a
 * React warning, or a component logging a failed request because a test left an API unstubbed
 * (the app logs handled failures with console.debug). A test that exercises a failure path either
 * mutes the method itself (`vi.spyOn(console, 'debug').mockImplementation(() => {})`, usually to
 * assert on the call) or calls `allowConsole('debug')`.
 */
const GUARDED = ['error', 'warn', 'debug'] as const;
type Guarded = (typeof GUARDED)[number];

let unexpected: { method: Guarded; args: unknown[] }[] = [];
let allowed = new Set<Guarded>();

/** Lets the running test write to these console methods (printed as usual, not failing). */
export function allowConsole(...methods: Guarded[]): void {
  for (const method of methods) allowed.add(method);
}

export function installConsoleGuard(): void {
  beforeEach(() => {
    unexpected = [];
    allowed = new Set();
    for (const method of GUARDED) {
      const original = console[method].bind(console);
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        if (!allowed.has(method)) unexpected.push({ method, args });
        original(...args);
      });
    }
  });

  afterEach(() => {
    const calls = unexpected;
    unexpected = [];
    if (calls.length === 0) return;
    const lines = calls.map(({ method, args }) => `console.${method}: ${args.map(describe).join(' ')}`);
    throw new Error(`Unexpected console output (stub the API, or allowConsole() if the test means it):\n${lines.join('\n')}`);
  });
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
