// What every service needs from the outside world, passed explicitly so tests can control it.
import type { Db } from '../db/client.ts';
import type { Clock } from './clock.ts';

export interface ServiceContext {
  db: Db;
  clock: Clock;
}

/** Who is calling: resolved by the auth plugin from an API key (or, later, a user's token). */
export interface Principal {
  companyId: string;
  scopes: readonly string[];
  apiKeyId: string | null;
}
