import { Type, type Static } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { REASON_NAME_MAX, REJECTION_REASON_KINDS } from './rejection-reasons.ts';
import { INTRO_MAX, PRIVACY_URL_MAX, SLUG_MAX, SLUG_MIN } from './board-rules.ts';

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
    board: Type.Ref('BoardSettings'),
  },
  { $id: 'CompanySettings', description: "The company's settings." },
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

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

export const BoardSettings = Type.Object(
  {
    slug: nullable(Type.String(), 'The board\'s address (/boards/{slug}, /careers/{slug}); null until chosen'),
    enabled: Type.Boolean({ description: 'Whether the board and careers pages answer (off: 404 there). Can be on only with a slug.' }),
    publicName: nullable(Type.String(), "The name the board shows; null: the company's name"),
    intro: Type.Record(Type.String(), Type.String(), { description: 'Intro text by language (BCP 47 tag)' }),
    logoUrl: nullable(Type.String(), 'Where the logo is served publicly (null: none, or no slug yet)'),
    accentColor: nullable(Type.String({ pattern: '^#[0-9a-f]{6}$', examples: ['#0b5fff'] }), '#rrggbb'),
    privacyPolicyUrl: nullable(Type.String({ format: 'uri' }), 'https link to the company\'s privacy policy, shown on the apply form'),
    showSalary: Type.Boolean({ description: 'Whether the board shows the listings\' salaries (off by default)' }),
    captchaEnabled: Type.Boolean({ description: 'Whether applications must pass a CAPTCHA (the server\'s CAPTCHA_SECRET is set); not a company setting' }),
    updatedAt: nullable(Type.String({ format: 'date-time' }), 'Last change; null: never set up'),
  },
  { $id: 'BoardSettings', description: "The company's public job board and careers pages." },
);

export const UpdateBoardBody = Type.Object(
  {
    slug: Type.Optional(
      nullable(
        Type.String({ minLength: 1, maxLength: 100, description: `${SLUG_MIN} to ${SLUG_MAX} lower-case letters, digits and single hyphens; some words are reserved; unique across companies (409)` }),
      ),
    ),
    enabled: Type.Optional(Type.Boolean()),
    publicName: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    intro: Type.Optional(
      Type.Record(Type.String({ maxLength: 35 }), Type.String({ maxLength: INTRO_MAX }), { description: 'Replaces every intro text: BCP 47 tag -> text (an empty text removes that language)' }),
    ),
    accentColor: Type.Optional(nullable(Type.String({ maxLength: 7, description: '#rrggbb' }))),
    privacyPolicyUrl: Type.Optional(nullable(Type.String({ maxLength: PRIVACY_URL_MAX, description: 'An https URL' }))),
    showSalary: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const UpdateCompanyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    defaultLanguage: Type.Optional(Type.String({ minLength: 2, maxLength: 35, description: 'BCP 47 tag, e.g. en or de-CH' })),
    requiresListingReview: Type.Optional(Type.Boolean()),
    requiresRejectionReason: Type.Optional(Type.Boolean()),
    board: Type.Optional(
      Type.Object(UpdateBoardBody.properties, {
        additionalProperties: false,
        minProperties: 1,
        description: 'The job board\'s settings, as PATCH /settings/company/board takes them; written with the other fields, all or nothing',
      }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const companySchemas = [BoardSettings, CompanySettings, RejectionReason, RejectionReasonRef];
