// Schemas of the public job board: they validate, serialize and become the OpenAPI document.
import { Type, type Static } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { COUNTRY_CODES } from '../reference-data/countries.ts';
import { POSITION_TYPES, WORK_PLACE_TYPES } from '../reference-data/enums.ts';
import { JobListing } from '../job-listings/schemas.ts';
import { SLUG_MAX } from '../companies/board-rules.ts';

const nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

export const Board = Type.Object(
  {
    slug: Type.String({ description: 'The board\'s address: /boards/{slug} here, /careers/{slug} for the careers pages' }),
    name: Type.String({ description: "The company's public name" }),
    intro: nullable(
      Type.Object({ language: Type.String({ description: 'BCP 47' }), text: Type.String() }),
      'The intro text in the best language for the caller (`lang`, else Accept-Language, else the company\'s default language); null when none is written',
    ),
    intros: Type.Record(Type.String(), Type.String(), { description: 'Every intro text, by language (BCP 47 tag)' }),
    defaultLanguage: Type.String({ description: "The company's default language (BCP 47)" }),
    logoUrl: nullable(Type.String(), 'Path of the logo on this server (PNG, JPEG or WEBP); null without one'),
    accentColor: nullable(Type.String({ pattern: '^#[0-9a-f]{6}$', examples: ['#0b5fff'] }), 'The company\'s colour, #rrggbb'),
    privacyPolicyUrl: nullable(Type.String({ format: 'uri' }), "The company's privacy policy: what applicants agree to"),
    showSalary: Type.Boolean({ description: 'Whether the listings show their salary' }),
    captcha: nullable(
      Type.Object({ provider: Type.Enum(['turnstile', 'hcaptcha']), siteKey: Type.String() }),
      "The CAPTCHA an application must carry as `captchaToken` (the widget's site key); null: none asked",
    ),
    updatedAt: Type.String({ format: 'date-time', description: 'Last change to the board settings' }),
  },
  { $id: 'Board', description: "A company's public job board: nothing else of the company is shown." },
);

const Location = Type.Object({
  city: nullable(Type.String()),
  state: nullable(Type.String()),
  country: nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
});

export const BoardJobSummary = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    position: Type.Object(
      {
        value: Type.String({ description: 'The position in the best language for the caller, else as written' }),
        translated: Type.Boolean(),
      },
    ),
    positionType: Type.Enum(POSITION_TYPES),
    workPlaceType: Type.Enum(WORK_PLACE_TYPES),
    sectorId: nullable(Type.String({ format: 'uuid' }), 'Id from GET /public/v1/sectors'),
    location: nullable(Location, 'City, region and country of the address; null without one'),
    sourceLanguage: Type.String({ description: 'The language the listing was written in (BCP 47)' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    publishedAt: nullable(Type.String({ format: 'date-time' }), 'When it first became ACTIVE'),
    expiresAt: nullable(Type.String({ format: 'date-time' }), 'When it closes by itself'),
  },
  { $id: 'BoardJobSummary', description: 'An open (ACTIVE) listing, as a board lists it.' },
);

const INTERNAL = ['companyId', 'referenceNumber', 'rejectionReason', 'jobListingTags', 'status', 'closedAt'] as const;

export const BoardJob = Type.Omit(JobListing, [...INTERNAL], {
  $id: 'BoardJob',
  title: 'BoardJob',
  description:
    "An open listing as its board shows it: the listing's texts in the language asked for, without the company's internal fields (reference number, review notes, tags). The salary fields are null unless the company shows salaries.",
});

export const BoardJobsPage = Type.Object(
  {
    data: Type.Array(Type.Ref('BoardJobSummary')),
    pagination: Type.Object({
      page: Type.Integer(),
      size: Type.Integer(),
      totalElements: Type.Integer(),
      totalPages: Type.Integer(),
      nextCursor: nullable(Type.String(), 'Pass as `cursor` for the next page; null on the last page'),
    }),
  },
  { description: 'A page of the board\'s open listings, newest first.' },
);

const Lang = Type.Optional(
  Type.String({
    minLength: 2,
    maxLength: 35,
    pattern: '^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$',
    description: 'The language wanted (BCP 47); takes the place of Accept-Language',
  }),
);

export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: SLUG_MAX, description: 'The board\'s slug' }) });
export const BoardJobParams = Type.Object({ ...SlugParams.properties, id: Type.String({ format: 'uuid' }) });

export const BoardQuery = Type.Object({ lang: Lang }, { additionalProperties: false });

export const BoardJobsQuery = Type.Object(
  {
    ...PageQuery,
    workPlaceType: Type.Optional(Type.Enum(WORK_PLACE_TYPES)),
    positionType: Type.Optional(Type.Enum(POSITION_TYPES)),
    country: Type.Optional(Type.Enum(COUNTRY_CODES, { description: 'ISO 3166-1 alpha-2 code of the listing\'s address, e.g. DE' })),
    sectorId: Type.Optional(Type.String({ format: 'uuid', description: 'Id from GET /public/v1/sectors' })),
    q: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Only listings whose position contains this text (case-insensitive), as written or translated' }),
    ),
    lang: Lang,
  },
  { additionalProperties: false },
);
export type BoardJobsQuery = Static<typeof BoardJobsQuery>;

export const LogoQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'Version, as logoUrl gives it' })) });

export const ApplicationForm = Type.Object(
  {
    formToken: Type.String({ description: 'From POST .../application-form, unchanged: dates when the form was shown' }),
    notBefore: Type.String({ format: 'date-time', description: 'When the form was shown' }),
    earliestSubmitAt: Type.String({ format: 'date-time', description: 'An application sent earlier is refused (too fast for a person)' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The token is refused after this: ask for a new one' }),
    honeypotField: Type.String({ description: 'A field the form must carry empty and hide from people (bots fill it in)' }),
  },
  { $id: 'BoardApplicationForm', description: 'What an apply form must carry.' },
);

export const ApplyMultipart = Type.Unsafe({
  type: 'object',
  required: ['firstName', 'lastName', 'email', 'privacyConsent', 'formToken'],
  properties: {
    firstName: { type: 'string', maxLength: 100 },
    lastName: { type: 'string', maxLength: 100 },
    email: { type: 'string', format: 'email', maxLength: 254, description: "Matched without letter case against the company's candidates" },
    phone: { type: 'string', maxLength: 50 },
    coverLetter: { type: 'string', maxLength: 20000 },
    links: { type: 'string', description: 'http(s) links, one per line (or the field repeated), at most 20' },
    privacyConsent: { type: 'string', enum: ['true', 'on', 'yes', '1'], description: 'Required: the applicant agrees to the privacy notice (privacyPolicyUrl)' },
    formToken: { type: 'string', description: 'From POST .../application-form' },
    website: { type: 'string', maxLength: 0, description: 'The honeypot: must be empty (hide it from people)' },
    captchaToken: { type: 'string', description: "The CAPTCHA widget's answer, when the board asks for one (`cf-turnstile-response` and `h-captcha-response` are taken too)" },
    resume: { type: 'string', format: 'binary', description: 'The résumé, the last part of the form (PDF, DOC, DOCX, ODT, RTF, TXT, PNG, JPEG)' },
  },
});

export const BoardApplicationReceipt = Type.Object(
  {
    applicationId: Type.String({ format: 'uuid', description: 'Quote it when contacting the company' }),
    position: Type.String({ description: 'The position applied to' }),
  },
  { $id: 'BoardApplicationReceipt', description: 'The application was received.' },
);

export const boardSchemas = [Board, BoardJobSummary, BoardJob, ApplicationForm, BoardApplicationReceipt];
