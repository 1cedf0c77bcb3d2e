import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createUploadDir, processAlive, removeOrphanUploadDirs } from './uploadDirs.ts';

/** The pid of a process that ran and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await once(child, 'exit');
  return child.pid!;
}

describe('upload directories of stopped server processes', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tribuna-upload-dirs-test-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("removes those of processes that are gone, with their files, and keeps this process's, a running one's and anything else", async () => {
    const gone = await deadPid();
    expect(processAlive(gone)).toBe(false);
    const orphan = join(root, `tribuna-uploads-${gone}-AbC123`);
    await mkdir(orphan);
    await writeFile(join(orphan, 'half-an-upload'), 'x'.repeat(1000));
    const mine = await createUploadDir(root);
    const running = join(root, `tribuna-uploads-1-Zz9`); // pid 1 always runs
    await mkdir(running);
    const unrelated = join(root, 'tribuna-uploads-legacy');
    await mkdir(unrelated);

    expect(await removeOrphanUploadDirs(root)).toBe(1);
    expect((await readdir(root)).sort()).toEqual([mine, running, unrelated].map((p) => p.slice(root.length + 1)).sort());
  });
});
