// /settings/members: a company's members and invitations, for a signed-in user's access token.
// Every member may list; only an ADMIN may invite, cancel an invitation or remove a member.
import { Type } from 'typebox';
import type { AppInstance } from '../../http/app-instance.ts';
import { auditActorOf } from '../../http/actor.ts';
import { principalOf } from '../../http/auth.ts';
import { errorResponses } from '../../http/error-envelope.ts';
import { PageQuery, Paginated } from '../../http/pagination.ts';
import { cancelInvitation, inviteMember, listInvitationsPage, listMembersPage, removeMember } from './members.ts';
import { CreateInvitationBody } from './schemas.ts';

const tags = ['Members'];
const anyMember = { scope: null, bearerOnly: true } as const;
const adminOnly = { scope: null, bearerOnly: true, role: 'ADMIN' } as const;

const ACCEPTING = `The invited person accepts by signing in (Google, LinkedIn or Facebook) with this e-mail address,
verified by the provider: they join this company with the invited role instead of getting a company of their own.
Nothing is sent by e-mail: tell them to sign in. A person belongs to one company; someone who already belongs to
another keeps it, and the invitation stays open until it expires.`;

export async function memberRoutes(app: AppInstance): Promise<void> {
  app.get(
    '/settings/members',
    {
      config: { auth: anyMember },
      schema: {
        tags,
        operationId: 'listMembers',
        summary: "List the company's members",
        description: 'Newest first.',
        querystring: Type.Object(PageQuery),
        response: { 200: Paginated(Type.Ref('Member')), ...errorResponses([422]) },
      },
    },
    async (request) => listMembersPage(app.ctx, principalOf(request).companyId, request.query),
  );

  app.delete(
    '/settings/members/:userId',
    {
      config: { auth: adminOnly },
      schema: {
        tags,
        operationId: 'removeMember',
        summary: 'Remove a member',
        description:
          "The member's access tokens stop working on their very next request, on every server. The last ADMIN cannot be removed (409).",
        params: Type.Object({ userId: Type.String({ format: 'uuid' }) }),
        response: { 204: Type.Null({ description: 'Removed' }), ...errorResponses([404, 409]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await removeMember(app.ctx, principal.companyId, request.params.userId, await auditActorOf(app.ctx, principal));
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/settings/members/invitations',
    {
      config: { auth: anyMember },
      schema: {
        tags,
        operationId: 'listInvitations',
        summary: 'List open invitations',
        description: 'Invitations not yet accepted and not expired, newest first.',
        querystring: Type.Object(PageQuery),
        response: { 200: Paginated(Type.Ref('Invitation')), ...errorResponses([422]) },
      },
    },
    async (request) => listInvitationsPage(app.ctx, principalOf(request).companyId, request.query),
  );

  app.post(
    '/settings/members/invitations',
    {
      config: { auth: adminOnly },
      schema: {
        tags,
        operationId: 'createInvitation',
        summary: 'Invite a person to the company',
        description: `${ACCEPTING}\n\n409 when the person is already a member or an invitation for the address is open.`,
        body: CreateInvitationBody,
        response: { 201: Type.Ref('Invitation'), ...errorResponses([409]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const invitation = await inviteMember(app.ctx, {
        companyId: principal.companyId,
        email: request.body.email,
        role: request.body.role,
        invitedBy: principal.userId ?? null,
      }, await auditActorOf(app.ctx, principal));
      return reply.status(201).send(invitation);
    },
  );

  app.delete(
    '/settings/members/invitations/:id',
    {
      config: { auth: adminOnly },
      schema: {
        tags,
        operationId: 'cancelInvitation',
        summary: 'Cancel an open invitation',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 204: Type.Null({ description: 'Cancelled' }), ...errorResponses([404]) },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      await cancelInvitation(app.ctx, principal.companyId, request.params.id, await auditActorOf(app.ctx, principal));
      return reply.status(204).send(null);
    },
  );
}
