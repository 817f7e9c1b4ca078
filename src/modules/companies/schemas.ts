import { Type } from 'typebox';

export const CompanySettings = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    defaultLanguage: Type.String({ description: 'BCP 47 tag; the source language of new listings unless they name one' }),
    requiresListingReview: Type.Boolean({
      description: 'When true, publishing a listing sends it to UNDER_REVIEW until an ADMIN approves or rejects it',
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
  },
  { additionalProperties: false, minProperties: 1 },
);

export const companySchemas = [CompanySettings];
