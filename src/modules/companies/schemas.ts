import { Type, type Static } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { REASON_NAME_MAX, REJECTION_REASON_KINDS } from './rejection-reasons.ts';

export const CompanySettings = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    defaultLanguage: Type.String({ description: 'BCP 47 tag; the source language of new listings unless they name one' }),
    requiresListingReview: Type.Boolean({
      description: 'When true, publishing a listing sends it to UNDER_REVIEW until an ADMIN approves or rejects it',
    }),
    requiresRejectionReason: Type.Boolean({
      description: 'When true, a move to REJECTED must give a `reasonId` (one of GET /public/v1/rejection-reasons, kind REJECTION): 422 without one',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'CompanySettings', description: "The company's settings." },
);

export const UpdateCompanyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    defaultLanguage: Type.Optional(Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47 tag, e.g. en or de-CH' })),
    requiresListingReview: Type.Optional(Type.Boolean()),
    requiresRejectionReason: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

const Kind = Type.Enum(REJECTION_REASON_KINDS, {
  description: 'REJECTION: given with a move to REJECTED (the company turned the candidate down). WITHDRAWAL: with a move to WITHDRAWN (the candidate left).',
});
const ReasonName = Type.String({ minLength: 1, maxLength: REASON_NAME_MAX, description: `1 to ${REASON_NAME_MAX} characters, trimmed; unique within the company and kind, whatever the letter case` });

export const RejectionReason = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String({ examples: ['Not enough experience'] }),
    kind: Kind,
    active: Type.Boolean({
      description: 'false: archived. A move cannot give an archived reason; the moves that gave it keep it (history, analytics).',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'RejectionReason', description: "One of the company's reasons for rejecting a candidate (REJECTED) or for their withdrawal (WITHDRAWN)." },
);

export const RejectionReasonRef = Type.Object(
  { id: Type.String({ format: 'uuid' }), name: Type.String({ examples: ['Not enough experience'] }), kind: Kind },
  { $id: 'RejectionReasonRef', description: 'The rejection reason a move gave (its name as of now: a renamed reason shows its new name)' },
);

export const RejectionReasonQuery = Type.Object(
  {
    ...PageQuery,
    kind: Type.Optional(Type.Enum(REJECTION_REASON_KINDS, { description: 'Only reasons of this kind' })),
    active: Type.Optional(Type.Boolean({ description: 'true: only the reasons a move can give; false: only the archived ones' })),
  },
  { additionalProperties: false },
);
export type RejectionReasonQuery = Static<typeof RejectionReasonQuery>;

export const CreateRejectionReasonBody = Type.Object({ name: ReasonName, kind: Kind }, { additionalProperties: false });

export const UpdateRejectionReasonBody = Type.Object(
  {
    name: Type.Optional(ReasonName),
    active: Type.Optional(Type.Boolean({ description: 'false archives the reason, true restores it' })),
  },
  { additionalProperties: false, minProperties: 1, description: 'The kind of a reason never changes: create another one instead.' },
);

export const RejectionReasonIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const companySchemas = [CompanySettings, RejectionReason, RejectionReasonRef];
