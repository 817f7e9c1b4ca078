// The upload memory figures of `npm run bench` (group `uploads`): ten 10 MB multipart uploads at
// once to the real server process, once with the directory file store and once with the S3 one
// (against a local s3rver run by this process), and how much the server's RSS grows while they run
// (goal: < 50 MB, i.e. no upload is ever held whole or a part at a time in memory). The baseline is
// taken after one upload has warmed the paths (modules loaded, code compiled), so the figure is what
// ten more at once cost, not the first upload's one-off costs.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { startLocalS3 } from '../test/helpers/local-s3.ts';

export interface UploadsBench {
  /** The database (empty) and encryption key the CLI and the servers use. */
  env: Record<string, string>;
  port: number;
  run(args: string[], env: Record<string, string>): Promise<string>;
  start(script: string, env: Record<string, string>): ChildProcess;
  waitFor(url: string, process: ChildProcess, name: string): Promise<void>;
  withPg<T>(fn: (client: pg.Client) => Promise<T>): Promise<T>;
  figure(name: string, value: number | null, unit: string, goal: string, met: boolean | null, note?: string): void;
  log(message: string): void;
}

const UPLOADS = 10;
const FILE_BYTES = 10 * 1024 * 1024;
const GOAL_MB = 50;

function rssMb(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

/** A 10 MB text file (TXT is decided from the bytes: valid UTF-8 to the last byte, no markup). */
function body(): Blob {
  const line = 'Experienced engineer, ten years of distributed systems and recruiting software.\n';
  return new Blob([Buffer.alloc(FILE_BYTES, line)], { type: 'text/plain' });
}

export async function measureUploads(bench: UploadsBench): Promise<void> {
  const cli = async <T>(...args: string[]): Promise<T> => JSON.parse(await bench.run(['src/cli.ts', ...args], bench.env)) as T;
  const { companyId } = await cli<{ companyId: string }>('seed', '--listings', '1', '--candidates', '1', '--applications', '1');
  const { rawKey: key } = await cli<{ rawKey: string }>('api-key', 'create', '--company', companyId, '--scopes', 'candidates:read,candidates:write', '--label', 'bench uploads');
  const [candidateId] = await bench.withPg(async (client) =>
    (await client.query('select id from candidates where company_id = $1 order by id limit 1', [companyId])).rows.map((row: { id: string }) => row.id),
  );
  if (!candidateId) throw new Error('uploads: the company has no candidate');
  const file = body();
  const filesDir = mkdtempSync(join(tmpdir(), 'bench-files-'));
  const s3 = await startLocalS3('bench-uploads');
  try {
    const backends: Array<[string, Record<string, string>]> = [
      ['directory', { FILE_STORE: 'directory', FILES_DIR: filesDir }],
      ['s3', { FILE_STORE: 's3', ...s3.env }],
    ];
    for (const [name, env] of backends) {
      const server = bench.start('src/server.ts', { ...bench.env, PORT: String(bench.port), ...env });
      const base = `http://127.0.0.1:${bench.port}`;
      try {
        await bench.waitFor(`${base}/readyz`, server, `server (${name} store)`);
        const upload = async (): Promise<string> => {
          const form = new FormData();
          form.append('kind', 'RESUME');
          form.append('file', file, 'resume.txt');
          const res = await fetch(`${base}/public/v1/candidates/${candidateId}/files`, { method: 'POST', headers: { 'x-api-key': key }, body: form });
          const answer = (await res.json()) as { id?: string };
          if (res.status !== 201 || !answer.id) throw new Error(`upload (${name}): ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
          return answer.id;
        };
        const ids = [await upload()];
        await new Promise((resolve) => setTimeout(resolve, 500));
        const baseline = rssMb(server.pid!);
        let peak = baseline;
        const sampler = setInterval(() => {
          peak = Math.max(peak, rssMb(server.pid!));
        }, 20);
        const started = performance.now();
        try {
          ids.push(...(await Promise.all(Array.from({ length: UPLOADS }, upload))));
        } finally {
          clearInterval(sampler);
        }
        const seconds = (performance.now() - started) / 1000;
        peak = Math.max(peak, rssMb(server.pid!));
        const growth = peak - baseline;
        bench.figure(
          `upload_rss_growth_mb_${name}`,
          growth,
          'MB',
          `< ${GOAL_MB}`,
          growth < GOAL_MB,
          `${UPLOADS} concurrent ${FILE_BYTES / 2 ** 20} MB multipart uploads in ${seconds.toFixed(1)} s; server RSS ${baseline.toFixed(0)} -> peak ${peak.toFixed(0)} MB`,
        );
        for (const id of ids) {
          await fetch(`${base}/public/v1/candidates/${candidateId}/files/${id}`, { method: 'DELETE', headers: { 'x-api-key': key } });
        }
      } finally {
        server.kill('SIGTERM');
        await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(undefined)));
      }
    }
  } finally {
    await s3.close();
    rmSync(filesDir, { recursive: true, force: true });
  }
}
