// PGlite is a single-process database: two processes writing one data directory corrupt it.
// A lock file holding the owner's pid makes the second opener fail at once with a clear message.
//
// Every step that decides who holds the lock is one atomic file-system call, so two processes
// starting at once can never both win:
// - taking a free lock: link() a file already holding our pid to the lock's name (fails if the
//   name exists; the lock is never seen empty or half-written);
// - taking over a stale lock (its process is gone): only the process that creates the marker
//   `recruiting.lock.takeover-<dead pid>` (again with link()) may replace it, and it does so with
//   rename() over the lock, after checking the lock still names that dead process. Nobody ever
//   deletes a lock another live process holds.
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

export class DataDirLockedError extends Error {}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Held by a live process other than this one? (Our own pid in the file: a restarted container.) */
function heldByOther(pid: number): boolean {
  return pid !== process.pid && isRunning(pid);
}

/** link() without throwing on EEXIST: whether we created `to`. */
function linkExclusive(from: string, to: string): boolean {
  try {
    linkSync(from, to);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

const MAX_ATTEMPTS = 50;

/** Takes the directory's lock, or throws DataDirLockedError naming the process that holds it. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'recruiting.lock');
  // Our candidate lock, complete before it can be seen under the lock's name.
  const mine = join(dataDir, `recruiting.lock.${process.pid}.${randomUUID()}`);
  writeFileSync(mine, String(process.pid));
  try {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (linkExclusive(mine, lockPath)) return releaser(lockPath);
      const holder = readPid(lockPath);
      if (holder === undefined) continue; // released meanwhile: try again
      if (holder > 0 && heldByOther(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is in use by process ${holder} (a running server or CLI). ` +
            'Stop that process first, or set DATABASE_URL to use a PostgreSQL server that many processes can share.',
        );
      }
      // Stale: its process is gone. One process wins the right to replace it.
      const marker = join(dataDir, `recruiting.lock.takeover-${holder}`);
      if (!linkExclusive(mine, marker)) {
        const markerPid = readPid(marker);
        // The marker's own writer died mid-takeover (a window of microseconds): clear it.
        if (markerPid !== undefined && !(markerPid > 0 && heldByOther(markerPid))) rmSync(marker, { force: true });
        continue; // another process is taking over: look again at what the lock says
      }
      try {
        // Still the same stale lock? Then nobody but us may touch it: replace it in one step.
        if (readPid(lockPath) === holder) {
          renameSync(mine, lockPath);
          return releaser(lockPath);
        }
      } finally {
        rmSync(marker, { force: true });
      }
    }
    throw new DataDirLockedError(`Could not lock ${dataDir}`);
  } finally {
    rmSync(mine, { force: true });
  }
}

function releaser(lockPath: string): () => void {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Only our own lock: never one another process has since taken over.
    if (readPid(lockPath) === process.pid) rmSync(lockPath, { force: true });
  };
}
