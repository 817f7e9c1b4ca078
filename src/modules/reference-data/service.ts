// Reference data (sectors, tags, enumerated values) as callers see it, and the existence checks
// other modules validate their references with.
import type { Db } from '../../db/client.ts';
import type { ServiceContext } from '../../shared/context.ts';
import { JOB_LISTING_STATUSES, POSITION_TYPES, WORK_PLACE_TYPES } from './enums.ts';
import { existingSectorIds, existingTagIds, listSectors as listSectorRows, listTags as listTagRows } from './repo.ts';

export async function listSectors(ctx: ServiceContext) {
  return (await listSectorRows(ctx.db)).map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    subSectorId: row.parentId,
  }));
}

export async function listTags(ctx: ServiceContext) {
  return (await listTagRows(ctx.db)).map((row) => ({ id: row.id, name: row.name, tagType: row.tagType }));
}

export function listEnums() {
  return {
    PositionType: [...POSITION_TYPES],
    WorkPlaceType: [...WORK_PLACE_TYPES],
    JobListingStatus: [...JOB_LISTING_STATUSES],
  };
}

/** The subset of ids that name existing sectors; takes the caller's transaction. */
export async function knownSectorIds(db: Db, ids: string[]): Promise<Set<string>> {
  return existingSectorIds(db, ids);
}

/** The subset of ids that name existing tags; takes the caller's transaction. */
export async function knownTagIds(db: Db, ids: string[]): Promise<Set<string>> {
  return existingTagIds(db, ids);
}
