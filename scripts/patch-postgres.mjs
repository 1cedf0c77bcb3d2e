// postinstall: two fixes to postgres.js 3.4.9, in each of its builds (src/, cjs/src/, cf/src/).
//
// 1. queue.js. Its Queue.shift() leaves an `undefined` hole at the front of the array and only clears the
// array once the queue is empty, and remove() searches the whole array. The pool round-robins
// busy connections with `busy.shift()` then `move(c, busy)`, which calls `busy.remove(c)` for a
// connection already shifted out: under sustained load (never an empty queue) every query adds
// one hole and scans all the earlier ones. Measured in the votes benchmark: after ~1 million
// queries, `remove` took half of the server's CPU and /api/health served half as many requests
// as at the start. The fix searches from the first live entry and compacts the array once holes
// are the majority; behaviour is otherwise the same.
//
// 2. connection.js. A transaction (`sql.begin`) keeps writing to its connection directly. When that
// connection is lost mid-transaction (PostgreSQL restarted, backend terminated), the query that
// was running rejects and `begin` answers ROLLBACK on the same connection, whose socket is gone:
// the write is deferred with setImmediate and throws "Cannot read properties of null (reading
// 'write')" outside any promise, which ends the process (seen in CI: the worker died during a
// PostgreSQL restart). The fix rejects a statement given to a connection without a socket with
// CONNECTION_CLOSED, like any other statement of a lost connection.
//
// Idempotent. A version whose files differ from the known ones is left alone with a warning
// (scripts/patch-postgres.test.ts then fails, so an upgrade gets looked at).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PATCH_MARKER = 'tribuna: patched queue';

const ROOT = path.resolve(import.meta.dirname, '..');
const BUILDS = ['src', 'cf/src', 'cjs/src'];

const BUGGY_REMOVE = `    remove: (x) => {
      const index = xs.indexOf(x)
      return index === -1
        ? null
        : (xs.splice(index, 1), x)
    },`;

const BUGGY_SHIFT = `    shift: () => {
      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else {
        xs[index - 1] = undefined
      }

      return out
    }`;

const FIXED_REMOVE = `    remove: (x) => {
      // ${PATCH_MARKER}: entries before \`index\` are holes, never a match.
      const at = xs.indexOf(x, index)
      return at === -1
        ? null
        : (xs.splice(at, 1), x)
    },`;

const FIXED_SHIFT = `    shift: () => {
      if (index >= xs.length)
        return undefined

      const out = xs[index++]

      if (index === xs.length) {
        index = 0
        xs = []
      } else if (index >= 64 && index * 2 >= xs.length) {
        // ${PATCH_MARKER}: drop the holes once they are the majority.
        xs = xs.slice(index)
        index = 0
      } else {
        xs[index - 1] = undefined
      }

      return out
    }`;

const BUGGY_EXECUTE = `  function execute(q) {
    if (terminated)
      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))
`;

const FIXED_EXECUTE = `  function execute(q) {
    if (terminated)
      return queryError(q, Errors.connection('CONNECTION_DESTROYED', options))

    // ${PATCH_MARKER}: a lost connection (a transaction's ROLLBACK after its socket closed)
    // rejects the statement instead of deferring a write to a null socket. True: the caller must
    // not move this closed connection to another queue.
    if (!socket)
      return (queryError(q, Errors.connection('CONNECTION_CLOSED', options)), true)
`;

/** Each replaced part of queue.js: [the 3.4.9 text, its fix]. */
export const QUEUE_FIXES = [
  [BUGGY_REMOVE, FIXED_REMOVE],
  [BUGGY_SHIFT, FIXED_SHIFT],
];

/** Each replaced part of connection.js: [the 3.4.9 text, its fix]. */
export const CONNECTION_FIXES = [[BUGGY_EXECUTE, FIXED_EXECUTE]];

/** The fixes of each patched file of a build. */
export const FIXES_BY_FILE = { 'queue.js': QUEUE_FIXES, 'connection.js': CONNECTION_FIXES };

/** The patched text of a file, or null when it is not the known 3.4.9 file (or already patched). */
export function patchSource(source, fixes) {
  if (source.includes(PATCH_MARKER)) return null;
  if (!fixes.every(([buggy]) => source.includes(buggy))) return null;
  return fixes.reduce((text, [buggy, fixed]) => text.replace(buggy, fixed), source);
}

/** The patched text of a queue.js, or null when it is not the known 3.4.9 file (or already patched). */
export const patchQueueSource = (source) => patchSource(source, QUEUE_FIXES);

function main() {
  const dir = path.join(ROOT, 'node_modules', 'postgres');
  if (!existsSync(dir)) return;
  for (const file of BUILDS.flatMap((build) => Object.keys(FIXES_BY_FILE).map((name) => `${build}/${name}`))) {
    const full = path.join(dir, file);
    if (!existsSync(full)) continue;
    const source = readFileSync(full, 'utf8');
    if (source.includes(PATCH_MARKER)) continue;
    const patched = patchSource(source, FIXES_BY_FILE[path.basename(file)]);
    if (patched === null) {
      console.warn(`[tribuna] postgres/${file} is not the known 3.4.9 file: left unpatched (see scripts/patch-postgres.mjs)`);
      continue;
    }
    writeFileSync(full, patched);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
