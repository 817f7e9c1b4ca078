// Every log line the test suite produces goes to one directory per run (global-setup.ts makes it
// and, when the run ends, scans it for secrets and fails the run if any is found). Each test
// process appends to its own file; child processes' output is added with appendChildOutput.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { inject } from 'vitest';

function logFile(): string | undefined {
  const dir = inject('suiteLogDir');
  return dir ? join(dir, `${process.pid}.log`) : undefined;
}

/** A stream for Fastify's logger: synchronous appends, so nothing is lost when a test process ends. */
export function suiteLogStream(): { write(line: string): void } {
  const file = logFile();
  return { write: (line) => (file ? appendFileSync(file, line) : undefined) };
}

/**
 * Adds a child process's log lines (a server's, a worker's) to this run's logs. Only its JSON log
 * lines: what it prints on purpose (the demo key banner of a first start) is not a log.
 */
export function appendChildLogLines(output: string): void {
  const file = logFile();
  const lines = output.split('\n').filter((line) => line.startsWith('{"level":'));
  if (file && lines.length > 0) appendFileSync(file, `${lines.join('\n')}\n`);
}
