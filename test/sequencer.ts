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

/**
 * Vitest starts files it has no timings of (a fresh clone, CI) largest first, so that the longest
 * start early. The longest files are small parts of a large suite module (server/src/testing/suites/,
 * test/e2e/suites/): weigh each file with the suite it imports. With timings, Vitest's own order.
 */
export class SuiteWeightSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const cache = this.ctx.cache;
    const timed = (spec: TestSpecification) =>
      cache.getFileTestResults(`${spec.project.name}:${path.relative(this.ctx.config.root, spec.moduleId)}`) !== undefined;
    if (sorted.some(timed)) return sorted;
    const weights = new Map(sorted.map((spec) => [spec.moduleId, weight(spec.moduleId)]));
    // Groups keep their order (the first place each one has in Vitest's order); the projects of a
    // group (web and integration) are mixed, heaviest first.
    const groupOf = (spec: TestSpecification) => String(spec.project.config.sequence.groupOrder);
    const groupRank = new Map<string, number>();
    sorted.forEach((spec, index) => groupRank.has(groupOf(spec)) || groupRank.set(groupOf(spec), index));
    return sorted
      .map((spec, index) => ({ spec, index, rank: groupRank.get(groupOf(spec))!, weight: weights.get(spec.moduleId)! }))
      .sort((a, b) => a.rank - b.rank || b.weight - a.weight || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
