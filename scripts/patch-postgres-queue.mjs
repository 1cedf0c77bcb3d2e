// postinstall: fixes the connection queue of postgres.js 3.4.9 (src/, cjs/src/ and cf/src/queue.js).
//
// Its Queue.shift() leaves an `undefined` hole at the front of the array and only clears the
// array once the queue is empty, and remove() searches the whole array. The pool round-robins
// busy connections with `busy.shift()` then `move(c, busy)`, which calls `busy.remove(c)` for a
// connection already shifted out: under sustained load (never an empty queue) every query adds
// one hole and scans all the earlier ones. Measured in the votes benchmark: after ~1 million
// queries, `remove` took half of the server's CPU and /api/health served half as many requests
// as at the start. The fix searches from the first live entry and compacts the array once holes
// are the majority; behaviour is otherwise the same.
//
// Idempotent. A version whose queue.js differs from the known one is left alone with a warning
// (scripts/patch-postgres-queue.test.ts then fails, so an upgrade gets looked at).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PATCH_MARKER = 'tribuna: patched queue';

const ROOT = path.resolve(import.meta.dirname, '..');
const FILES = ['src/queue.js', 'cf/src/queue.js', 'cjs/src/queue.js'];

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

/** Each replaced part of queue.js: [the 3.4.9 text, its fix]. */
export const QUEUE_FIXES = [
  [BUGGY_REMOVE, FIXED_REMOVE],
  [BUGGY_SHIFT, FIXED_SHIFT],
];

/** The patched text of a queue.js, or null when it is not the known 3.4.9 file (or already patched). */
export function patchQueueSource(source) {
  if (source.includes(PATCH_MARKER)) return null;
  if (!QUEUE_FIXES.every(([buggy]) => source.includes(buggy))) return null;
  return QUEUE_FIXES.reduce((text, [buggy, fixed]) => text.replace(buggy, fixed), source);
}

function main() {
  const dir = path.join(ROOT, 'node_modules', 'postgres');
  if (!existsSync(dir)) return;
  for (const file of FILES) {
    const full = path.join(dir, file);
    if (!existsSync(full)) continue;
    const source = readFileSync(full, 'utf8');
    if (source.includes(PATCH_MARKER)) continue;
    const patched = patchQueueSource(source);
    if (patched === null) {
      console.warn(`[tribuna] postgres/${file} is not the known 3.4.9 queue: left unpatched (see scripts/patch-postgres-queue.mjs)`);
      continue;
    }
    writeFileSync(full, patched);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
