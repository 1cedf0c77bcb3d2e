import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

// Each server process streams uploads into a directory of its own under the system's temporary
// directory, named after its pid. A process that ends normally removes it; one killed with -9 (or
// by the OOM killer) cannot, so every start removes the directories of processes that are gone.

const PREFIX = 'tribuna-uploads-';
const OWNED = /^tribuna-uploads-(\d+)-[A-Za-z0-9]+$/;

/** Whether a process with this pid is running (EPERM: it is, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates this process's upload directory under `tmp`. */
export function createUploadDir(tmp: string): Promise<string> {
  return mkdtemp(join(tmp, `${PREFIX}${process.pid}-`));
}

/** Removes the upload directories under `tmp` of processes no longer running; answers how many. */
export async function removeOrphanUploadDirs(tmp: string, alive: (pid: number) => boolean = processAlive): Promise<number> {
  let removed = 0;
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    const match = OWNED.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || alive(pid)) continue;
    await rm(join(tmp, name), { recursive: true, force: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}
