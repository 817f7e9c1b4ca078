// Sample data for a person exploring the service (docs/decisions.md, "Explore with sample data"):
// their own company filled with the pipeline story (story.ts) through the real services, and
// removed again in one step, exactly: the listings and candidates the fill made are recorded in
// this module's table, and removal deletes those (with everything hanging on them) and nothing else.
import { withTransaction, type Principal, type ServiceContext } from '../../shared/context.ts';
import { ConflictError, ForbiddenError, NotFoundError } from '../../shared/errors.ts';
import { deleteEventsMentioning, markOwnTransactionEventsDispatched } from '../../infra/outbox/repo.ts';
import { deleteApplicationsFor } from '../applications/service.ts';
import { deleteCandidates, takenEmails } from '../candidates/service.ts';
import { eraseFilesOfCandidate, purgeObjects } from '../documents/service.ts';
import { deleteJobListingsForGood } from '../job-listings/service.ts';
import { eraseNotesOf } from '../notes/service.ts';
import { claimSampleDataSet, findSampleDataSet, recordSampleRows, takeSampleDataSet } from './repo.ts';
import { storyEmails, tellPipelineStory } from './story.ts';

export { tellPipelineStory, type DemoPipeline } from './story.ts';

export interface SampleDataView {
  /** Whether this server fills companies with sample data (SAMPLE_DATA: development mode on the embedded database by default). */
  offered: boolean;
  present: boolean;
  filledAt: string | null;
  jobListings: number;
  candidates: number;
}

export async function getSampleData(ctx: ServiceContext, companyId: string, offered: boolean): Promise<SampleDataView> {
  const set = await findSampleDataSet(ctx.db, companyId);
  return {
    offered,
    present: set !== undefined,
    filledAt: set?.filledAt.toISOString() ?? null,
    jobListings: set?.jobListingIds.length ?? 0,
    candidates: set?.candidateIds.length ?? 0,
  };
}

/**
 * Fills the caller's company with the sample pipeline, in one transaction: listings (two ACTIVE
 * with translations), candidates, applications in every stage over the last six weeks, rejections
 * with the company's reasons, and notes written by the caller. Its events are recorded as every
 * change's are (the event feed shows them) but marked fanned out in the same transaction, so no
 * webhook receives them. 403 when this server does not offer sample data; 409 when the company has
 * it already, or has candidates with the sample's e-mail addresses (they would be merged with it).
 */
export async function fillSampleData(ctx: ServiceContext, principal: Principal, offered: boolean): Promise<SampleDataView> {
  const { companyId } = principal;
  if (!offered) {
    throw new ForbiddenError('This server does not offer sample data: it is for a server in development mode on the embedded database (SAMPLE_DATA)', [
      { field: 'SAMPLE_DATA', message: 'is false on this server' },
    ]);
  }
  const now = ctx.clock.now();
  await withTransaction(ctx, async (tx) => {
    // Claimed first: a second fill waits here until this one ends, then finds the set.
    const claimed = await claimSampleDataSet(tx.db, { companyId, filledAt: now, filledByUserId: principal.userId ?? null, jobListingIds: [], candidateIds: [] });
    if (!claimed) {
      throw new ConflictError('This company has sample data already: remove it first (DELETE /settings/sample-data)', [{ field: 'present', message: 'is true' }]);
    }
    const taken = await takenEmails(tx, companyId, storyEmails());
    if (taken.length > 0) {
      throw new ConflictError(`Candidates with the sample's e-mail addresses exist (${taken.slice(0, 3).join(', ')}): sample data would be mixed with them`, [
        { field: 'candidates', message: `${taken.length} have sample e-mail addresses` },
      ]);
    }
    const story = await tellPipelineStory(tx, companyId, { noteAuthor: principal });
    await recordSampleRows(tx.db, companyId, { jobListingIds: story.jobListingIds, candidateIds: story.candidateIds });
    await markOwnTransactionEventsDispatched(tx.db, companyId, now);
  });
  return getSampleData(ctx, companyId, offered);
}

/**
 * Removes the company's sample data in one transaction, as if it had never been there: the sample
 * listings and candidates, and what hangs on them (every application in a sample listing or of a
 * sample candidate with its history, notes, files), deleted for good through their owners, so the
 * kept counts, the analytics and the search totals follow; and the events that name them. Nothing
 * else of the company is touched. 404 when the company has no sample data. Allowed on any server
 * (a company keeps the way out when the server stops offering sample data).
 */
export async function removeSampleData(ctx: ServiceContext, companyId: string): Promise<void> {
  const now = ctx.clock.now();
  const fileKeys = await withTransaction(ctx, async (tx) => {
    const set = await takeSampleDataSet(tx.db, companyId);
    if (!set) throw new NotFoundError('Sample data');
    const keys: string[] = [];
    for (const id of set.candidateIds) keys.push(...(await eraseFilesOfCandidate(tx, companyId, id, now)));
    const applicationIds = await deleteApplicationsFor(tx, companyId, { jobListingIds: set.jobListingIds, candidateIds: set.candidateIds });
    for (const id of set.candidateIds) await eraseNotesOf(tx, companyId, id);
    await deleteCandidates(tx, companyId, set.candidateIds);
    await deleteJobListingsForGood(tx, companyId, set.jobListingIds);
    await deleteEventsMentioning(tx.db, companyId, [...set.jobListingIds, ...set.candidateIds, ...applicationIds]);
    return keys;
  });
  // The stored bytes after the commit, as an erasure does; what fails is left to the scheduled sweep.
  if (fileKeys.length > 0) await purgeObjects(ctx, fileKeys);
}
