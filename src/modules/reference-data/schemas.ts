import { Type } from 'typebox';
import { JOB_LISTING_STATUSES, POSITION_TYPES, WORK_PLACE_TYPES } from './enums.ts';

export const Sector = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    subSectorId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description:
        'For a sub-sector, the id of the sector it belongs to; null for a top-level sector. Any sector id, top-level or sub, may be used as a job listing sectorId.',
    }),
  },
  { $id: 'Sector' },
);

export const Tag = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    tagType: Type.Union([Type.Literal('SKILL'), Type.Literal('INDUSTRY'), Type.Literal('PROJECT_TYPE')]),
  },
  { $id: 'Tag' },
);

export const Enums = Type.Object(
  {
    PositionType: Type.Array(Type.Union(POSITION_TYPES.map((v) => Type.Literal(v)))),
    WorkPlaceType: Type.Array(Type.Union(WORK_PLACE_TYPES.map((v) => Type.Literal(v)))),
    JobListingStatus: Type.Array(Type.Union(JOB_LISTING_STATUSES.map((v) => Type.Literal(v)))),
  },
  { $id: 'Enums' },
);
