// Removing a whole company (an operator's DELETE FROM companies, cascading to every row of it)
// leaves none of its files' objects in the store: the cascade's delete of candidate_files marks the
// objects in the same transaction (migration 0040's trigger), and the scheduled sweep deletes them
// (retrying later what fails, as for an erasure). Against both file store backends.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { sweepFileDeletions } from '../../src/modules/documents/service.ts';
import { applicant, makeListing } from '../helpers/factories.ts';
import { startLocalS3, type LocalS3 } from '../helpers/local-s3.ts';
import { buildTestApp, type TestApp } from '../helpers/test-app.ts';
import { multipartBody, SAMPLES } from './samples.ts';

let s3: LocalS3;
beforeAll(async () => {
  s3 = await startLocalS3();
});
afterAll(async () => {
  await s3.close();
});

async function storedKeys(t: TestApp, companyId: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of t.deps.fileStore.list(`candidates/${companyId}/`)) keys.push(key);
  return keys.sort();
}

async function marks(t: TestApp, keys: string[]): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(t.database.db, sql`select storage_key as key from candidate_file_deletions order by storage_key`);
  return rows.map((row) => row.key).filter((key) => keys.includes(key));
}

for (const backend of ['directory', 's3'] as const) {
  describe(`removing a company (${backend} file store)`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp(backend === 's3' ? { FILE_STORE: 's3', ...s3.env, S3_PREFIX: `company-removal-${process.pid}` } : {});
    });
    afterAll(async () => {
      await t.close();
    });

    it("marks its files' objects in the deleting transaction, and the scheduled sweep deletes them", async () => {
      const tenant = await t.tenant();
      const other = await t.tenant();
      const upload = async (companyId: string, headers: Record<string, string>) => {
        const listingId = await makeListing(t, companyId);
        const applied = await t.app.inject({
          method: 'POST',
          url: '/public/v1/applications',
          headers,
          payload: { jobListingId: listingId, candidate: applicant(`gone.${Math.random().toString(36).slice(2)}@example.com`) },
        });
        expect(applied.statusCode, applied.body).toBe(201);
        const { payload, headers: form } = multipartBody({ kind: 'RESUME' }, { fileName: 'cv.pdf', bytes: SAMPLES.pdf });
        const res = await t.app.inject({ method: 'POST', url: `/public/v1/candidates/${applied.json().candidate.id}/files`, headers: { ...headers, ...form }, payload });
        expect(res.statusCode, res.body).toBe(201);
        return `candidates/${companyId}/${res.json().id}`;
      };
      const keys = [await upload(tenant.companyId, tenant.headers), await upload(tenant.companyId, tenant.headers)].sort();
      const kept = await upload(other.companyId, other.headers);
      expect(await storedKeys(t, tenant.companyId)).toEqual(keys);

      await queryRows(t.database.db, sql`delete from companies where id = ${tenant.companyId}`);
      // Marked by the same statement that removed the rows: a crash now still deletes the objects later.
      expect(await marks(t, [...keys, kept])).toEqual(keys);

      t.clock.advance(1_000);
      expect(await sweepFileDeletions(t.ctx)).toBe(2);
      expect(await storedKeys(t, tenant.companyId)).toEqual([]);
      expect(await marks(t, keys)).toEqual([]);
      // Another company's file is untouched.
      expect(await storedKeys(t, other.companyId)).toEqual([kept]);
    });
  });
}
