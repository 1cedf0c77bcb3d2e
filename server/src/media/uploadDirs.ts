import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

// Each server process streams uploads into a directory of its own under the system's temporary
// directory, named after its pid. A process that ends normally removes it; one killed with -9 (or
// by the OOM killer) cannot, so every start removes the directories of processes that are gone.
// The worker copies each clip it transcodes into such a directory too (its own prefix).

const PREFIX = 'tribuna-uploads-';
/** `<prefix><pid>-<mkdtemp's suffix>`; prefixes are letters and dashes (no pattern characters). */
const owned = (prefix: string) => new RegExp(`^${prefix}(\\d+)-[A-Za-z0-9]+$`);

/** Whether a process with this pid is running (EPERM: it is, as another user's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates this process's upload directory under `tmp` (another `prefix`: the worker's transcode directories). */
export function createUploadDir(tmp: string, prefix = PREFIX): Promise<string> {
  return mkdtemp(join(tmp, `${prefix}${process.pid}-`));
}

/** Removes the upload directories (named with `prefix`) under `tmp` of processes no longer running; answers how many. */
export async function removeOrphanUploadDirs(tmp: string, alive: (pid: number) => boolean = processAlive, prefix = PREFIX): Promise<number> {
  const pattern = owned(prefix);
  let removed = 0;
  for (const name of await readdir(tmp).catch(() => [] as string[])) {
    const match = pattern.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || alive(pid)) continue;
    await rm(join(tmp, name), { recursive: true, force: true }).catch(() => undefined);
    removed++;
  }
  return removed;
}
