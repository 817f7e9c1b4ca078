import { Type } from 'typebox';
import { JOB_LISTING_STATUSES, POSITION_TYPES, WORK_PLACE_TYPES } from './enums.ts';

// A real pair from the seeded data: Software Development is a sub-sector of Information Technology.
const TOP_LEVEL_EXAMPLE = {
  id: '701914c1-16ff-4c77-848c-3da0a416aa9c',
  name: 'Information Technology',
  description: 'Companies and roles that design, build, run and support software, hardware and digital services.',
  subSectorId: null,
};
const SUB_SECTOR_EXAMPLE = {
  id: '0f624620-bb62-4edb-aef6-f63ca252c66c',
  name: 'Software Development',
  description: 'Design, coding, testing and delivery of software applications and platforms.',
  subSectorId: TOP_LEVEL_EXAMPLE.id,
};

/** The sectors answer, top-level sector and sub-sector side by side, so the direction shows. */
export const SECTORS_EXAMPLE = [TOP_LEVEL_EXAMPLE, SUB_SECTOR_EXAMPLE];

export const Sector = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    description: Type.String(),
    subSectorId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description:
        'Points up, to the parent: on a sub-sector, the id of the top-level sector it belongs to; null on a top-level ' +
        'sector. Despite the name (kept from the contract) it never holds the id of a sub-sector: a sector\'s ' +
        'sub-sectors are the sectors whose subSectorId is its id. Any sector id, top-level or sub, may be used as a job ' +
        'listing sectorId.',
      examples: [TOP_LEVEL_EXAMPLE.id],
    }),
  },
  {
    $id: 'Sector',
    description:
      'A sector or a sub-sector. In the example, Software Development (a sub-sector) has subSectorId set to the id of ' +
      'Information Technology, its parent.',
    examples: [SUB_SECTOR_EXAMPLE],
  },
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
