import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { Enums, Sector, SECTORS_EXAMPLE, Tag } from './schemas.ts';
import { listEnums, listSectors, listTags } from './service.ts';

export async function referenceDataRoutes(app: AppInstance): Promise<void> {
  const auth = { scope: null };
  // Small answers every client reads again and again: an ETag of the body lets them revalidate.
  const config = { auth, entityTagOfBody: true };

  app.get(
    '/public/v1/sectors',
    {
      config,
      schema: {
        tags: ['Reference data'],
        operationId: 'listSectors',
        summary: 'List sectors and sub-sectors',
        description:
          'Every sector, top-level and sub. A sub-sector points to its parent through `subSectorId`; a top-level sector has ' +
          'null there. The example shows a parent and one of its sub-sectors.',
        response: { 200: Type.Array(Type.Ref('Sector'), { examples: [SECTORS_EXAMPLE] }) },
      },
    },
    async () => listSectors(app.ctx),
  );

  app.get(
    '/public/v1/tags',
    {
      config,
      schema: { tags: ['Reference data'], operationId: 'listTags', summary: 'List tags', response: { 200: Type.Array(Type.Ref('Tag')) } },
    },
    async () => listTags(app.ctx),
  );

  app.get(
    '/public/v1/enums',
    {
      config,
      schema: {
        tags: ['Reference data'],
        operationId: 'getEnums',
        summary: 'Allowed values of the enumerated job listing fields',
        response: { 200: Type.Ref('Enums') },
      },
    },
    async () => listEnums(),
  );
}

export const referenceDataSchemas = [Sector, Tag, Enums];
