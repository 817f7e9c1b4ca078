import { Type } from 'typebox';
import { ALL_SCOPES } from './scopes.ts';

const apiKeyFields = {
  id: Type.String({ format: 'uuid' }),
  keyPrefix: Type.String({ description: 'The first 12 characters of the key, to recognise it' }),
  label: Type.String({ description: 'Can be changed after creation' }),
  scopes: Type.Array(Type.String(), { description: 'Immutable after creation' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time' }),
  active: Type.Boolean({ description: 'False once revoked or expired' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Kept to the minute' }),
};

export const ApiKey = Type.Object(apiKeyFields, {
  $id: 'ApiKey',
  description: 'An API key. The key itself (rawKey) is never shown here: only once, when it is created.',
});

export const ApiKeyCreated = Type.Object(
  { ...apiKeyFields, rawKey: Type.String({ description: 'The full key: returned in this response only. Keep it now.' }) },
  { $id: 'ApiKeyCreated', description: 'A new API key, with the full key shown this once.' },
);

export const ApiKeyList = Type.Object({ data: Type.Array(Type.Ref('ApiKey')) }, { $id: 'ApiKeyList' });

export const CreateApiKeyBody = Type.Object(
  {
    label: Type.String({ minLength: 1, maxLength: 100 }),
    scopes: Type.Array(Type.Enum([...ALL_SCOPES]), { minItems: 1, maxItems: ALL_SCOPES.length, description: 'At least one scope' }),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'In the future; default one year from now' })),
  },
  { additionalProperties: false },
);

export const UpdateApiKeyBody = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    scopes: Type.Optional(
      Type.Unknown({ description: 'Not allowed: scopes are immutable (422). Revoke the key and create a new one instead.' }),
    ),
  },
  { additionalProperties: false },
);

export const apiKeySchemas = [ApiKey, ApiKeyCreated, ApiKeyList];
