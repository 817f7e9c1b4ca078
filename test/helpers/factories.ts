// Factories shared by test suites: listings made through the job listing service (the real rules),
// a company's job board turned on, and a count of outbox events, the witness that every change
// emitted exactly one event.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../src/db/client.ts';
import { updateBoardSettings, type BoardSettingsPatch } from '../../src/modules/companies/service.ts';
import {
  archiveJobListing,
  closeJobListing,
  createJobListing,
  publishJobListing,
} from '../../src/modules/job-listings/service.ts';
import type { JobListingStatus } from '../../src/modules/reference-data/enums.ts';
import type { TestApp } from './test-app.ts';

export async function makeListing(
  t: TestApp,
  companyId: string,
  status: JobListingStatus = 'ACTIVE',
  position = 'Backend engineer',
): Promise<string> {
  const { listing } = await createJobListing(t.ctx, companyId, { position, positionType: 'FULL_TIME', workPlaceType: 'REMOTE' });
  if (status === 'ACTIVE' || status === 'CLOSED') await publishJobListing(t.ctx, companyId, listing.id);
  if (status === 'CLOSED') await closeJobListing(t.ctx, companyId, listing.id);
  if (status === 'ARCHIVED') await archiveJobListing(t.ctx, companyId, listing.id);
  if (status === 'UNDER_REVIEW') throw new Error('not needed by these tests');
  return listing.id;
}

/** The company's public job board turned on at `slug` (the companies service's rules), with any other settings. */
export async function enableBoard(t: TestApp, companyId: string, slug: string, settings: Omit<BoardSettingsPatch, 'slug' | 'enabled'> = {}): Promise<void> {
  await updateBoardSettings(t.ctx, companyId, { ...settings, slug, enabled: true });
}

/** Outbox events of a company, optionally of one type. */
export async function countEvents(t: TestApp, companyId: string, type?: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from events where company_id = ${companyId} ${type ? sql`and type = ${type}` : sql``}`,
  );
  return row.n;
}

export async function eventsOf(t: TestApp, companyId: string, type: string): Promise<Array<Record<string, unknown>>> {
  const rows = await queryRows<{ data: Record<string, unknown> }>(
    t.database.db,
    sql`select data from events where company_id = ${companyId} and type = ${type} order by occurred_at, id`,
  );
  return rows.map((row) => row.data);
}

export async function countRows(
  t: TestApp,
  table: 'candidates' | 'applications' | 'application_status_history',
  companyId: string,
): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from ${sql.identifier(table)} where company_id = ${companyId}`,
  );
  return row.n;
}

export function applicant(email: string, extra: Record<string, unknown> = {}) {
  return { firstName: 'Ada', lastName: 'Lovelace', email, ...extra };
}
