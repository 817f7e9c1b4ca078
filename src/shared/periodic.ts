// A sweep run now and then by the worker (and the server's in-process worker): once at start, then
// every `intervalMs` after the previous run ended; never two runs at once in one process. Sweeps
// must be safe in several processes at once (they claim rows with SKIP LOCKED or delete by age).

export interface PeriodicOptions<T> {
  intervalMs: number;
  /** Told the result of each run (for a log line). */
  onDone?: (result: T) => void;
  /** Told about a failed run; the loop carries on with the next one. */
  onError?: (error: unknown) => void;
}

export interface Periodic {
  /** Waits for a running sweep to end; no sweep starts afterwards. */
  stop(): Promise<void>;
}

export function startPeriodic<T>(run: () => Promise<T>, options: PeriodicOptions<T>): Periodic {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const sweep = async () => {
    try {
      options.onDone?.(await run());
    } catch (error) {
      options.onError?.(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(schedule);
    }, options.intervalMs);
  };
  running = sweep().finally(schedule);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
