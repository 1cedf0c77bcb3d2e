import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** A file's size plus the size of the suite it is a part of (the modules it imports from a suites/ folder). */
function weight(file: string): number {
  const source = readFileSync(file, 'utf8');
  let size = source.length;
  for (const [, specifier] of source.matchAll(/^import [^;]*? from '(\.[^']*\/suites\/[^']+\.ts)';/gm)) {
    try {
      size += statSync(path.resolve(path.dirname(file), specifier!)).size;
    } catch {
      // Not a file of ours: the run fails on it anyway.
    }
  }
  return size;
}

/** Seconds the slowest files took on a busy machine (test/durations.json), by path from the root. */
const durations = (JSON.parse(readFileSync(new URL('./durations.json', import.meta.url), 'utf8')) as { seconds: Record<string, number> }).seconds;

/**
 * Vitest starts files it has no timings of (a fresh clone, CI) in this order: first the files
 * test/durations.json knows as slow, longest first, then the others largest first. A file's size
 * counts the suite it is a small part of (test/support/server/suites/, test/e2e/suites/). Projects
 * of one group (web and integration) are mixed; groups keep their order. With timings, Vitest's own order.
 */
export class SuiteWeightSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const timed = (spec: TestSpecification) => cache.getFileTestResults(`${spec.project.name}:${path.relative(root, spec.moduleId)}`) !== undefined;
    if (sorted.some(timed)) return sorted;
    const groupOf = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const groupRank = new Map<number, number>();
    sorted.forEach((spec, index) => groupRank.has(groupOf(spec)) || groupRank.set(groupOf(spec), index));
    return sorted
      .map((spec, index) => ({
        spec,
        index,
        rank: groupRank.get(groupOf(spec))!,
        seconds: durations[path.relative(root, spec.moduleId)] ?? 0,
        size: weight(spec.moduleId),
      }))
      .sort((a, b) => a.rank - b.rank || b.seconds - a.seconds || b.size - a.size || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
