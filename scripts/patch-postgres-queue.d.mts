/** Marks a postgres.js queue.js already fixed by scripts/patch-postgres-queue.mjs. */
export declare const PATCH_MARKER: string;
/** Each replaced part of queue.js: [the 3.4.9 text, its fix]. */
export declare const QUEUE_FIXES: ReadonlyArray<readonly [string, string]>;
/** The patched text of a queue.js, or null when it is not the known 3.4.9 file (or already patched). */
export declare function patchQueueSource(source: string): string | null;
