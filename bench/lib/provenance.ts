import { execFileSync } from 'node:child_process';
import { ROOT } from './processes.ts';

/** What a committed result was measured on: the commit checked out, whether the tree had changes, and when. */
export interface Provenance {
  commit: string | null;
  /** True when the working tree (bench/results aside) differed from `commit`: the figures then belong to uncommitted code. */
  dirty: boolean | null;
  measuredAt: string;
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    // Not a git checkout (an unpacked archive): the date alone.
    return null;
  }
}

/** Read once, when a benchmark's result is written. */
export function provenance(now: Date = new Date()): Provenance {
  const commit = git(['rev-parse', 'HEAD']);
  // Earlier results rewritten by this very run (or the last one) are not code: left out.
  const status = commit === null ? null : git(['status', '--porcelain', '--untracked-files=no', '--', '.', ':(exclude)bench/results']);
  return { commit, dirty: status === null ? null : status !== '', measuredAt: now.toISOString() };
}

/** The result with its provenance first, so a reader of the JSON sees it before the figures. */
export function withProvenance(json: Record<string, unknown>, p: Provenance = provenance()): Record<string, unknown> {
  const { commit: _c, dirty: _d, measuredAt, ...figures } = json;
  // A benchmark that stamped its own time (when its measurement ended) keeps it.
  return { commit: p.commit, dirty: p.dirty, measuredAt: typeof measuredAt === 'string' ? measuredAt : p.measuredAt, ...figures };
}
