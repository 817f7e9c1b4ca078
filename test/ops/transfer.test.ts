// Backup and restore of the embedded database, and the move to PostgreSQL, through the real CLI
// (child processes) on a populated data directory: keys keep working, webhook subscriptions keep
// their (sealed) secrets and pending deliveries go out from the copy. The export needs the
// machine's PostgreSQL, so it runs in the DATABASE_URL pass; backup and restore run in both.
// Uploaded files travel too: in the backup (DATA_DIR/files), and into S3 with the export's
// --files-to s3 (a local s3rver).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTestEvent } from '../helpers/events.ts';
import { runWebhookWorkerOnce } from '../../src/modules/webhooks/delivery-worker.ts';
import { createWebhookTransport, type WebhookTransport } from '../../src/modules/webhooks/transport.ts';
import { childEnv } from '../helpers/child-env.ts';
import { adminUrl, databaseUrlFor } from '../helpers/postgres-url.ts';
import { DAY_MS } from '../helpers/clock.ts';
import { buildTestApp, type Tenant, type TestApp } from '../helpers/test-app.ts';
import { startReceiver, type Receiver } from '../webhooks/receiver.ts';
import { S3FileStore } from '../../src/adapters/file-store/s3.ts';
import { startLocalS3, type LocalS3 } from '../helpers/local-s3.ts';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: childEnv(env) }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function cliJson(args: string[], env: Record<string, string>) {
  const result = await cli(args, env);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

let dir: string;
let dataDir: string;
let transport: WebhookTransport;
let receiver: Receiver;
// What the populated embedded database holds, as the API showed it.
let tenant: Tenant;
let listingId: string;
let subscription: { id: string; secret: string };
let pendingEventId: string;
const RESUME_KEY = 'c1/resume-1';
const RESUME = 'a résumé kept in the directory store';

const embedded = () => ({ DATA_DIR: dataDir, DATABASE_URL: '', ENCRYPTION_KEY: '' });
const openEmbedded = (directory = dataDir) => buildTestApp({ DATA_DIR: directory, ENCRYPTION_KEY: '' }, { dataDir: directory });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'recruiting-transfer-'));
  dataDir = join(dir, 'data');
  transport = createWebhookTransport({ allowLocal: true });
  receiver = await startReceiver((request) => (request.path === '/moved' ? { status: 200, body: 'ok' } : { status: 404 }));

  const t = await openEmbedded();
  try {
    tenant = await t.tenant();
    const listing = await t.app.inject({
      method: 'POST',
      url: '/public/v1/job-listings',
      headers: tenant.headers,
      payload: { position: 'Welder', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' },
    });
    expect(listing.statusCode).toBe(201);
    listingId = listing.json().id;
    const imported = await t.app.inject({
      method: 'POST',
      url: '/public/v1/candidates/import',
      headers: tenant.headers,
      payload: { candidates: [{ firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', skills: ['COBOL'] }] },
    });
    expect(imported.statusCode).toBe(200);
    const hook = await t.app.inject({
      method: 'POST',
      url: '/public/v1/webhooks',
      headers: tenant.headers,
      payload: { url: `${receiver.origin}/moved`, events: ['job_listing.updated'] },
    });
    expect(hook.statusCode).toBe(201);
    subscription = hook.json();
    // An event whose delivery has not gone out yet when the move happens.
    pendingEventId = (
      await t.ctx.db.transaction((tx) =>
        recordTestEvent(tx, { companyId: tenant.companyId, type: 'job_listing.updated', data: { moved: true }, occurredAt: t.clock.now() }),
      )
    ).id;
    // An uploaded file, in the embedded default's store (DATA_DIR/files).
    await t.ctx.fileStore!.put(RESUME_KEY, Readable.from([Buffer.from(RESUME)]), { contentType: 'text/plain' });
  } finally {
    await t.close();
  }
}, 180_000);

afterAll(async () => {
  await transport?.close();
  await receiver?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore of the embedded database', () => {
  it('refuses while a process holds the directory, backs up when stopped, and a restore answers with the same keys and data', async () => {
    const holder = await openEmbedded();
    const file = join(dir, 'backup.tar.gz');
    try {
      const refused = await cli(['backup', '--out', file], embedded());
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`in use by process ${process.pid}`);
      expect(existsSync(file)).toBe(false);
    } finally {
      await holder.close();
    }

    const backup = await cliJson(['backup', '--out', file], embedded());
    expect(backup).toMatchObject({ file, files: `included (${join(dataDir, 'files')})` });
    expect(readFileSync(file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b])); // gzip
    expect((await cli(['backup', '--out', file], embedded())).stderr).toContain('already exists');

    const restoredDir = join(dir, 'restored');
    expect(await cliJson(['restore', '--in', file], { ...embedded(), DATA_DIR: restoredDir })).toMatchObject({
      dataDir: restoredDir,
      applied: [],
    });
    // Not over an existing database.
    expect((await cli(['restore', '--in', file], embedded())).stderr).toContain('is not empty');

    const restored = await openEmbedded(restoredDir);
    try {
      const res = await restored.app.inject({ url: `/public/v1/job-listings/${listingId}`, headers: tenant.headers });
      expect(res.statusCode).toBe(200);
      expect(res.json().position.value).toBe('Welder');
      // The uploaded file came back, private as it was.
      expect(await text((await restored.ctx.fileStore!.get(RESUME_KEY))!)).toBe(RESUME);
      expect(statSync(join(restoredDir, 'files/objects', RESUME_KEY)).mode & 0o777).toBe(0o600);
      expect(statSync(join(restoredDir, 'files/objects/c1')).mode & 0o777).toBe(0o700);
      // The key file came along: the restored install still signs with the subscription's secret.
      await runWebhookWorkerOnce({
        db: restored.ctx.db,
        clock: restored.clock,
        secrets: restored.ctx.secrets,
        transport,
        log: silentLog,
        leaseMs: 60_000,
        concurrency: 5,
      });
      const sent = receiver.requests.filter((request) => request.headers['webhook-id'] === pendingEventId);
      expect(sent).toHaveLength(1);
      new Webhook(subscription.secret).verify(sent[0]!.body, sent[0]!.headers as Record<string, string>);
    } finally {
      await restored.close();
    }
    receiver.requests.length = 0;
  }, 240_000);
});

describe('backup with the files elsewhere', () => {
  it('FILES_DIR outside DATA_DIR: refused unless --without-files, which says where the files stay; with S3 they stay in the bucket', async () => {
    const filesDir = join(dir, 'files-elsewhere');
    const file = join(dir, 'backup-without-files.tar.gz');
    const refused = await cli(['backup', '--out', file], { ...embedded(), FILES_DIR: filesDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`FILES_DIR (${filesDir}) is outside DATA_DIR`);
    expect(existsSync(file)).toBe(false);
    const backup = await cliJson(['backup', '--out', file, '--without-files'], { ...embedded(), FILES_DIR: filesDir });
    expect(backup.files).toContain(`back up ${filesDir} beside it`);
    // With FILE_STORE=s3 the files are in the bucket: the backup says so and goes ahead.
    const withS3 = await cliJson(['backup', '--out', join(dir, 'backup-s3.tar.gz')], { ...embedded(), FILE_STORE: 's3', S3_BUCKET: 'acme-files' });
    expect(withS3.files).toBe('not in the backup: they are in the S3 bucket acme-files (keep it versioned or replicated)');
  }, 120_000);

  it('export --files-to: anything but s3, or S3 settings that cannot work, are refused before anything is copied', async () => {
    const url = 'postgres://postgres@127.0.0.1:1/nothing';
    const wrong = await cli(['export-to-postgres', '--database-url', url, '--files-to', 'gcs'], embedded());
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--files-to must be s3');
    const noBucket = await cli(['export-to-postgres', '--database-url', url, '--files-to', 's3'], embedded());
    expect(noBucket.code).toBe(2);
    expect(noBucket.stderr).toContain('--files-to s3: S3_BUCKET is required');
    const halfKey = await cli(['export-to-postgres', '--database-url', url, '--files-to', 's3'], {
      ...embedded(),
      FILE_STORE: 'directory',
      S3_BUCKET: 'some-bucket',
      S3_SECRET_ACCESS_KEY: 'secret-never-printed',
    });
    expect(halfKey.code).toBe(2);
    expect(halfKey.stderr).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
    expect(halfKey.stderr + halfKey.stdout).not.toContain('secret-never-printed');
  }, 60_000);
});

describe.skipIf(!process.env.DATABASE_URL)('export-to-postgres', () => {
  let admin: pg.Client;
  const name = `recruiting_export_${process.pid}`;
  let targetUrl: string;
  let s3: LocalS3;

  beforeAll(async () => {
    s3 = await startLocalS3();
    admin = new pg.Client({ connectionString: adminUrl(process.env.DATABASE_URL!) });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
    targetUrl = databaseUrlFor(process.env.DATABASE_URL!, name);
  });
  afterAll(async () => {
    await admin?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
    await s3?.close();
  });

  // Figures that kept counts answer (list totals, the analytics overview) on the embedded
  // database before the move, to compare with the copy's.
  let before: Awaited<ReturnType<typeof figures>>;
  let activeListingId: string;
  let overviewTo: string;

  /** Every list total (each filter the kept counts answer) and the overview, company-wide and per listing. */
  async function figures(t: TestApp) {
    const get = async (url: string) => {
      const res = await t.app.inject({ url, headers: tenant.headers });
      expect(res.statusCode, url).toBe(200);
      return res.json();
    };
    const lists = [
      '/public/v1/job-listings',
      ...['DRAFT', 'ACTIVE', 'CLOSED', 'ARCHIVED'].map((status) => `/public/v1/job-listings?status=${status}`),
      '/public/v1/candidates',
      '/public/v1/applications',
      ...['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED', 'REJECTED', 'WITHDRAWN'].map((status) => `/public/v1/applications?status=${status}`),
      '/public/v1/applications?status=HIRED&status=OFFER',
      `/public/v1/applications?jobListingId=${activeListingId}`,
      '/public/v1/webhooks',
      '/public/v1/events',
    ];
    const totals: Record<string, number> = {};
    for (const url of lists) totals[url] = (await get(`${url}${url.includes('?') ? '&' : '?'}size=1`)).pagination.totalElements;
    const overview = async (query: string) => {
      const { generatedAt: _generatedAt, ...rest } = await get(`/public/v1/analytics/overview?to=${overviewTo}${query}`);
      return rest;
    };
    return { totals, overview: await overview(''), listingOverview: await overview(`&jobListingId=${activeListingId}`) };
  }

  beforeAll(async () => {
    // A pipeline in every stage, over several days, with hires and an erased candidate: each kind
    // of kept count (per status, per day and furthest stage, hires) has rows to copy.
    const t = await openEmbedded();
    try {
      const call = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
        const res = await t.app.inject({ method, url, headers: tenant.headers, ...(payload ? { payload } : {}) });
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
        return res.statusCode === 204 ? undefined : res.json();
      };
      const listing = () => call('POST', '/public/v1/job-listings', { position: 'Rigger', positionType: 'FULL_TIME', workPlaceType: 'ON_SITE' });
      activeListingId = (await listing()).id;
      await call('POST', `/public/v1/job-listings/${activeListingId}/publish`);
      const closedId = (await listing()).id;
      await call('POST', `/public/v1/job-listings/${closedId}/publish`);
      await call('POST', `/public/v1/job-listings/${closedId}/close`);
      const path: Record<string, string[]> = {
        ACTIVE: [],
        IN_REVIEW: ['IN_REVIEW'],
        INTERVIEW: ['IN_REVIEW', 'INTERVIEW'],
        OFFER: ['IN_REVIEW', 'INTERVIEW', 'OFFER'],
        HIRED: ['IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED'],
        REJECTED: ['IN_REVIEW', 'REJECTED'],
        WITHDRAWN: ['WITHDRAWN'],
      };
      const ends = ['ACTIVE', 'IN_REVIEW', 'INTERVIEW', 'OFFER', 'HIRED', 'HIRED', 'REJECTED', 'WITHDRAWN'];
      const candidateIds: string[] = [];
      for (const [index, end] of ends.entries()) {
        const application = await call('POST', '/public/v1/applications', {
          jobListingId: activeListingId,
          candidate: { firstName: 'Pat', lastName: `Number ${index}`, email: `pat${index}@example.com` },
        });
        candidateIds.push(application.jobSeekerId);
        for (const status of path[end]!) {
          t.clock.advance(DAY_MS / 2);
          await call('PATCH', `/public/v1/applications/${application.id}/status`, { status });
        }
      }
      await call('DELETE', `/public/v1/candidates/${candidateIds[0]}`); // erased: no longer counted
      overviewTo = t.clock.now().toISOString().slice(0, 10);
      before = await figures(t);
    } finally {
      await t.close();
    }
    expect(before.totals['/public/v1/applications']).toBe(8);
    expect(before.totals['/public/v1/applications?status=HIRED']).toBe(2);
    expect(before.totals['/public/v1/candidates']).toBe(8); // nine, one erased
  }, 120_000);

  it('copies everything into an empty PostgreSQL database; the API runs on the copy with the same keys, secrets and pending deliveries', async () => {
    const toS3 = { ...embedded(), FILE_STORE: 'directory', ...s3.env, S3_PREFIX: 'moved' };
    // Files go first: when they cannot be copied (no such bucket), nothing is in the database yet
    // and the export runs again.
    const failed = await cli(['export-to-postgres', '--database-url', targetUrl, '--files-to', 's3'], { ...toS3, S3_BUCKET: 'no-such-bucket' });
    expect(failed.code).toBe(1);
    const result = await cliJson(['export-to-postgres', '--database-url', targetUrl, '--files-to', 's3'], toS3);
    expect(result.files).toEqual({ copied: 1, bytes: Buffer.byteLength(RESUME) });
    const bucket = new S3FileStore(s3.settings({ prefix: 'moved/' }));
    try {
      expect(await text((await bucket.get(RESUME_KEY))!)).toBe(RESUME);
    } finally {
      await bucket.close();
    }
    const tables = result.tables as Record<string, number>;
    expect(tables).toMatchObject({ companies: 1, api_keys: 1, job_listings: 3, candidates: 9, applications: 8, webhook_subscriptions: 1 });
    expect(tables.events).toBeGreaterThanOrEqual(3); // listing and candidate created, and the pending one
    expect(result.encryptionKey).toContain('encryption.key');
    // A second export would mix two installations: refused, nothing written.
    const again = await cli(['export-to-postgres', '--database-url', targetUrl], embedded());
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds companies');

    const key = readFileSync(join(dataDir, 'encryption.key'), 'utf8').trim();
    const moved = await buildTestApp({ ENCRYPTION_KEY: key }, { databaseUrl: targetUrl });
    try {
      // Every total and the overview answer as they did on the embedded database: the target's
      // triggers count the copied rows once, and nothing counts them a second time.
      expect(await figures(moved)).toEqual(before);
      const listing = await moved.app.inject({ url: `/public/v1/job-listings/${listingId}`, headers: tenant.headers });
      expect(listing.statusCode).toBe(200);
      const search = await moved.app.inject({ url: '/public/v1/candidates?q=cobol', headers: tenant.headers });
      expect(search.json().data).toHaveLength(1); // the generated search column was rebuilt
      await runWebhookWorkerOnce({
        db: moved.ctx.db,
        clock: moved.clock,
        secrets: moved.ctx.secrets,
        transport,
        log: silentLog,
        leaseMs: 60_000,
        concurrency: 5,
      });
      const sent = receiver.requests.filter((request) => request.headers['webhook-id'] === pendingEventId);
      expect(sent).toHaveLength(1);
      new Webhook(subscription.secret).verify(sent[0]!.body, sent[0]!.headers as Record<string, string>);
    } finally {
      await moved.close();
    }
  }, 240_000);
});
