// A private temporary directory for the run's parameter files (user tokens), removed at the end.
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeParams } from './child.ts';

export const WORK_DIR = path.join(os.tmpdir(), `tribuna_bench_${process.pid}`);

export function paramsFile(name: string, params: unknown): string {
  mkdirSync(WORK_DIR, { recursive: true, mode: 0o700 });
  return writeParams(path.join(WORK_DIR, `${name}.json`), params);
}

export function removeWorkDir(): void {
  rmSync(WORK_DIR, { recursive: true, force: true });
}
