import { Type, type TSchema } from 'typebox';
import { PageQuery } from '../../http/pagination.ts';
import { AUDIT_ACTION_NAMES, AUDIT_ACTIONS } from './service.ts';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const TARGET_TYPES = [...new Set(Object.values(AUDIT_ACTIONS))];

export const AuditEntry = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    occurredAt: Type.String({ format: 'date-time', description: 'When the action committed' }),
    actor: Type.Object(
      {
        type: Type.Enum(['USER', 'API_KEY', 'SYSTEM'], {
          description: 'USER: a signed-in person; API_KEY: an integration; SYSTEM: the service itself (an operator command, scheduled work)',
        }),
        id: Nullable(Type.String({ format: 'uuid', description: 'The user id or the API key id; null for SYSTEM' })),
        label: Type.String({ description: "The person's name (else e-mail) or the key's label, as it was then" }),
      },
      { description: 'Who did it' },
    ),
    action: Type.Enum(AUDIT_ACTION_NAMES, { description: 'What was done (a dotted name)' }),
    target: Type.Object(
      {
        type: Type.Enum(TARGET_TYPES, { description: 'What kind of thing was acted on' }),
        id: Nullable(Type.String({ format: 'uuid' })),
        label: Nullable(Type.String({ description: 'Its name as it was then (a key label, an e-mail, a webhook URL, a listing title); null for an erased candidate' })),
      },
      { description: 'What it was done to' },
    ),
    detail: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What else the action said, depending on it: scopes of a new key, the role of an invitation, the events of a webhook, the fields changed. Never a secret or personal data of an erased candidate.',
    }),
  },
  {
    $id: 'AuditEntry',
    description: 'One action in the company audit log',
    examples: [
      {
        id: '3f2e1d0c-9b8a-4f7e-8d6c-5b4a3f2e1d0c',
        occurredAt: '2026-11-27T09:14:05.120Z',
        actor: { type: 'USER', id: 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e', label: 'Ada Lovelace' },
        action: 'api_key.created',
        target: { type: 'API_KEY', id: 'a9b8c7d6-e5f4-4a3b-8c2d-1e0f9a8b7c6d', label: 'ATS sync' },
        detail: { scopes: ['jobs:read', 'candidates:read'], expiresAt: '2027-11-27T09:14:05.120Z' },
      },
    ],
  },
);

export const AuditLogQuery = Type.Object(
  {
    ...PageQuery,
    action: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description: `Only these actions, comma-separated: ${AUDIT_ACTION_NAMES.join(', ')}`,
        examples: ['api_key.created,api_key.revoked'],
      }),
    ),
    actorId: Type.Optional(Type.String({ format: 'uuid', description: 'Only what this user or API key did' })),
    from: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries at or after this instant' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries before this instant' })),
  },
  { additionalProperties: false },
);

export const auditSchemas = [AuditEntry];
