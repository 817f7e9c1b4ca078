import { Type } from 'typebox';

const Role = Type.Union([Type.Literal('ADMIN'), Type.Literal('MEMBER')], {
  description: 'ADMIN manages API keys and members; MEMBER may read them',
});

export const MemberSchema = Type.Object(
  {
    userId: Type.String({ format: 'uuid' }),
    email: Type.String({ format: 'email', description: 'Verified by the identity provider the member signed in with' }),
    name: Type.Union([Type.String(), Type.Null()]),
    picture: Type.Union([Type.String({ format: 'uri' }), Type.Null()]),
    role: Role,
    joinedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Member', title: 'Member' },
);

export const InvitationSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    email: Type.String({ format: 'email' }),
    role: Role,
    invitedBy: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The inviting user; null when an operator invited with the CLI',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.String({ format: 'date-time', description: 'The invitation can be accepted until then (14 days)' }),
  },
  { $id: 'Invitation', title: 'Invitation' },
);

export const CreateInvitationBody = Type.Object(
  {
    email: Type.String({ minLength: 3, maxLength: 320, description: 'Address the person will sign in with' }),
    role: Role,
  },
  { additionalProperties: false },
);

export const memberSchemas = [MemberSchema, InvitationSchema];
