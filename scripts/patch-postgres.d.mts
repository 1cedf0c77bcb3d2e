/** Marks a postgres.js file already fixed by scripts/patch-postgres.mjs. */
export declare const PATCH_MARKER: string;
type Fixes = ReadonlyArray<readonly [string, string]>;
/** Each replaced part of queue.js: [the 3.4.9 text, its fix]. */
export declare const QUEUE_FIXES: Fixes;
/** Each replaced part of connection.js: [the 3.4.9 text, its fix]. */
export declare const CONNECTION_FIXES: Fixes;
/** The fixes of each patched file of a build. */
export declare const FIXES_BY_FILE: Readonly<Record<'queue.js' | 'connection.js', Fixes>>;
/** The patched text of a file, or null when it is not the known 3.4.9 file (or already patched). */
export declare function patchSource(source: string, fixes: Fixes): string | null;
/** The patched text of a queue.js, or null when it is not the known 3.4.9 file (or already patched). */
export declare function patchQueueSource(source: string): string | null;
