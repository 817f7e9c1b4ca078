import { Type } from 'typebox';
import type { AppInstance } from '../../app.ts';
import { JOB_LISTING_STATUSES, POSITION_TYPES, WORK_PLACE_TYPES } from './enums.ts';
import { listSectors, listTags } from './repo.ts';
import { Enums, Sector, Tag } from './schemas.ts';

export async function referenceDataRoutes(app: AppInstance): Promise<void> {
  const { db } = app.deps.database;
  const auth = { scope: null };

  app.get(
    '/public/v1/sectors',
    {
      config: { auth },
      schema: {
        tags: ['Reference data'],
        summary: 'List sectors and sub-sectors',
        response: { 200: Type.Array(Type.Ref('Sector')) },
      },
    },
    async () =>
      (await listSectors(db)).map((row) => ({
        id: row.id,
        name: row.name,
        description: row.description,
        subSectorId: row.parentId,
      })),
  );

  app.get(
    '/public/v1/tags',
    {
      config: { auth },
      schema: { tags: ['Reference data'], summary: 'List tags', response: { 200: Type.Array(Type.Ref('Tag')) } },
    },
    async () => (await listTags(db)).map((row) => ({ id: row.id, name: row.name, tagType: row.tagType })),
  );

  app.get(
    '/public/v1/enums',
    {
      config: { auth },
      schema: {
        tags: ['Reference data'],
        summary: 'Allowed values of the enumerated job listing fields',
        response: { 200: Type.Ref('Enums') },
      },
    },
    async () => ({
      PositionType: [...POSITION_TYPES],
      WorkPlaceType: [...WORK_PLACE_TYPES],
      JobListingStatus: [...JOB_LISTING_STATUSES],
    }),
  );
}

export const referenceDataSchemas = [Sector, Tag, Enums];
