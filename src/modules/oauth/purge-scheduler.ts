// Scheduled purge of expired authorization-server rows (tokens, codes, sessions, interactions).
// Reads already ignore expired rows, so this only keeps the table small: safe to run in every
// worker at once (a plain DELETE of rows nobody can read any more).
import type { ServiceContext } from '../../shared/context.ts';
import { purgeExpiredOidcPayloads } from './service.ts';

export interface OidcPurge {
  stop(): Promise<void>;
}

export function startOidcPurge(
  ctx: ServiceContext,
  options: { intervalMs?: number; onPurged?: (count: number) => void; onError?: (error: unknown) => void } = {},
): OidcPurge {
  const intervalMs = options.intervalMs ?? 10 * 60_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const sweep = async () => {
    try {
      const count = await purgeExpiredOidcPayloads(ctx);
      if (count > 0) options.onPurged?.(count);
    } catch (error) {
      options.onError?.(error);
    }
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep().finally(schedule);
    }, intervalMs);
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
