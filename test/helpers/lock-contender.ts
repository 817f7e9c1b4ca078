// A child process for the embedded lock race test: loads the lock code, says "ready", waits for
// "go" on stdin, tries to take the lock, says "won" or "locked", and holds it until stdin closes.
import { lockDataDir, DataDirLockedError } from '../../src/db/embedded-lock.ts';

const dataDir = process.argv[2];
process.stdout.write('ready\n');
process.stdin.setEncoding('utf8');
let started = false;
process.stdin.on('data', (chunk: string) => {
  if (started || !chunk.includes('go')) return;
  started = true;
  try {
    lockDataDir(dataDir);
    process.stdout.write('won\n');
  } catch (error) {
    process.stdout.write(error instanceof DataDirLockedError ? 'locked\n' : `error ${(error as Error).message}\n`);
  }
});
process.stdin.on('end', () => process.exit(0));
