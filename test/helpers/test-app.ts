// buildTestApp: the real app on a real database (PGlite, or PostgreSQL when DATABASE_URL is set),
// started from the migrated template that global-setup made. One per test file.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { buildDeps, type Deps } from '../../src/deps.ts';
import type { AppInstance } from '../../src/http/app-instance.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { startDatabase } from '../../src/db/start.ts';
import type { ServiceContext } from '../../src/shared/context.ts';
import { createLogger } from '../../src/shared/logger.ts';
import type { Metrics } from '../../src/shared/metrics.ts';
import { createApiKey } from '../../src/modules/api-keys/service.ts';
import { ALL_SCOPES, type Scope } from '../../src/modules/api-keys/scopes.ts';
import { createCompany } from '../../src/modules/companies/service.ts';
import { TestClock } from './clock.ts';
import { suiteLogStream } from './suite-log.ts';
import { adminUrl, databaseUrlFor } from './postgres-url.ts';

export interface TestDatabase {
  database: Database;
  /** For PostgreSQL: the URL of this file's own database (to start other processes on it). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** The pool's size and timeouts from `config` (DB_POOL_SIZE...), or the tests' defaults. */
function poolOptions(config: Config | undefined) {
  return {
    poolSize: config?.dbPoolSize ?? 5,
    ...(config
      ? {
          timeouts: {
            statementMs: config.dbStatementTimeoutMs,
            idleInTransactionMs: config.dbIdleInTransactionTimeoutMs,
            poolWaitMs: config.dbPoolTimeoutMs,
          },
        }
      : {}),
  };
}

/** A fresh, migrated database of this file's own (pool settings from `config` on PostgreSQL). */
export async function openTestDatabase(config?: Config): Promise<TestDatabase> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const name = `recruiting_t_${process.ppid}_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: adminUrl(databaseUrl) });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);
    const url = databaseUrlFor(databaseUrl, name);
    const database = await openDatabase({ databaseUrl: url, ...poolOptions(config) });
    return {
      database,
      url,
      async drop() {
        await database.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const template = new Blob([readFileSync(inject('embeddedTemplatePath'))]);
  const database = await openDatabase({ loadDataDir: template });
  return { database, url: undefined, drop: () => database.close() };
}

/** ENCRYPTION_KEY of test apps; child processes (worker, server, CLI) on the same data get it too. */
export const TEST_ENCRYPTION_KEY = 'dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy1vayE=';

export interface Tenant {
  companyId: string;
  apiKey: string;
  /** Headers for app.inject with this tenant's key. */
  headers: Record<string, string>;
}

export interface TestApp {
  app: AppInstance;
  database: Database;
  /** PostgreSQL: this file's own database, for child processes (CLI, server) on the same data. */
  databaseUrl: string | undefined;
  clock: TestClock;
  ctx: ServiceContext;
  /** Everything buildDeps made for this app (to start the scheduled work on it). */
  deps: Deps;
  config: Config;
  /** The app's metrics registry (pass `metrics.deliveries` to a worker to count its deliveries there). */
  metrics: Metrics;
  /** With `captureLogs`: every log line written so far, parsed. */
  logs(): Array<Record<string, unknown>>;
  /** A new company with a key holding the given scopes (all by default). */
  tenant(scopes?: Scope[]): Promise<Tenant>;
  /** Another key for an existing company. */
  keyFor(companyId: string, scopes: Scope[]): Promise<string>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Adds test-only routes or hooks before the app is ready (error and pagination tests). */
  configure?: (app: AppInstance) => void | Promise<void>;
  /**
   * Opens this embedded data directory (taking its lock, migrating it if needed) instead of a
   * copy of the template: to look at what a child process (the CLI) wrote there.
   */
  dataDir?: string;
  /** Keeps the app's log lines (at LOG_LEVEL, default silent) for logs(). */
  captureLogs?: boolean;
  /** PostgreSQL: opens this database (another app's, left in place on close) instead of a new copy. */
  databaseUrl?: string;
  /** Receives the app's log lines instead of this run's log file (see suite-log.ts). */
  logStream?: { write(line: string): void };
}

async function openDataDir(dataDir: string): Promise<TestDatabase> {
  const database = await startDatabase(loadConfig({ DATA_DIR: dataDir }));
  return { database, url: undefined, drop: () => database.close() };
}

async function openSharedDatabase(url: string, config: Config): Promise<TestDatabase> {
  const database = await openDatabase({ databaseUrl: url, ...poolOptions(config) });
  return { database, url, drop: () => database.close() };
}

export async function buildTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  // Uploaded files go to a directory of this app's own (removed on close) unless the test names one
  // or keeps them in S3.
  const ownFilesDir = env.FILES_DIR || options.dataDir || env.FILE_STORE === 's3' ? undefined : mkdtempSync(join(tmpdir(), 'recruiting-test-files-'));
  // Every injected request comes from 127.0.0.1, and suites send many keyless or wrong-key calls on
  // purpose: the per-address failure limit is raised here and tested on its own.
  const config = loadConfig({
    // Every app logs (to this run's log file, not the terminal): the suite's final check scans
    // all of it for secrets (test/helpers/suite-log.ts).
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_LOCAL: 'true',
    SEED_DEMO: 'false',
    DB_POOL_SIZE: '5',
    AUTH_FAILURES_PER_MINUTE: '100000',
    ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    ...(ownFilesDir ? { FILES_DIR: ownFilesDir } : {}),
    ...env,
  });
  const testDb = options.dataDir
    ? await openDataDir(options.dataDir)
    : options.databaseUrl
      ? await openSharedDatabase(options.databaseUrl, config)
      : await openTestDatabase(config);
  const clock = new TestClock();
  const logLines: string[] = [];
  const suiteStream = options.logStream ?? suiteLogStream();
  // Every app's lines go to this run's log file (scanned for secrets at the end); captureLogs also
  // keeps them for logs().
  const stream = options.captureLogs
    ? { write: (line: string) => { logLines.push(line); suiteStream.write(line); } }
    : suiteStream;
  const deps = await buildDeps(config, { database: testDb.database, clock, log: createLogger(config, 'api', stream) });
  const app = await buildApp(deps);
  const { metrics } = deps;
  await options.configure?.(app);
  await app.ready();
  const ctx = deps.ctx;

  const keyFor = async (companyId: string, scopes: Scope[]) =>
    (await createApiKey(ctx, { companyId, label: 'test key', scopes })).rawKey;

  return {
    app,
    database: testDb.database,
    databaseUrl: testDb.url,
    clock,
    ctx,
    deps,
    config,
    metrics,
    logs: () => logLines.map((line) => JSON.parse(line) as Record<string, unknown>),
    keyFor,
    async tenant(scopes = ALL_SCOPES) {
      const company = await createCompany(ctx, { name: `Company ${randomUUID().slice(0, 6)}` });
      const apiKey = await keyFor(company.id, scopes);
      return { companyId: company.id, apiKey, headers: { 'x-api-key': apiKey } };
    },
    async close() {
      await app.close();
      await deps.close();
      await testDb.drop();
      if (ownFilesDir) rmSync(ownFilesDir, { recursive: true, force: true });
    },
  };
}
