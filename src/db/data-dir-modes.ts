// The embedded data directory holds every row (e-mail addresses, and in the WAL even data erased
// since), and in development the encryption key file: its owner's alone, directory 0700 and files
// 0600, whatever umask the process was started with (under umask 000, common in containers, all of
// it was world-readable and world-writable). PGlite (Emscripten's NODEFS) creates new files and
// directories through the process umask, so the process that opens the directory takes the umask
// PostgreSQL's own server takes (077); but it sets the modes of the files it starts a database from
// itself (0666, past the umask), a restored archive's files keep the modes they were saved with,
// and a few files rewritten while running come out 0644: the modes are set right again when the
// directory is opened and when it is closed. Meanwhile the 0700 directory keeps everyone else out.
import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

const DIRECTORY_MODE = 0o700;
const FILE_MODE = 0o600;

/** Before anything is written to `dataDir`: a private umask, and the directory itself 0700. */
export function privateDataDir(dataDir: string): void {
  // A worker thread cannot set the umask (Node throws); the process's main thread has set it.
  if (isMainThread) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: DIRECTORY_MODE });
  chmodSync(dataDir, DIRECTORY_MODE);
}

/** Every directory under `dataDir` 0700 and every file 0600 (symbolic links are left alone). */
export function restrictDataDirModes(dataDir: string): void {
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return; // removed meanwhile
      throw error;
    }
    if (stat.isSymbolicLink()) return;
    const wanted = stat.isDirectory() ? DIRECTORY_MODE : FILE_MODE;
    if ((stat.mode & 0o777) !== wanted) chmodSync(path, wanted);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dataDir);
}
