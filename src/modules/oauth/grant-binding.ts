// Which membership a grant was made for. A grant, and every code, access token and refresh token
// issued under it, speaks for the user in the company of the membership that was theirs when the
// grant was made (its id and company, kept beside the grant). Once that membership ends, nothing
// under the grant works again, even when the same person joins a company again later (re-invited,
// or a company of their own at the next sign-in): that is a new membership, with a new id.
import type { ServiceContext } from '../../shared/context.ts';
import { getMembership, getMembershipById, type MembershipView } from '../users/service.ts';
import { findPayload, upsertPayload } from './repo.ts';

// A row of the authorization server's own table, beside oidc-provider's: `grant_id` set, so that
// revoking the grant removes it with everything else issued under it.
const KIND = 'GrantMembership';

interface Binding {
  userId: string;
  membershipId: string;
  companyId: string;
}

/** Remembers that the grant speaks for this membership (for as long as the grant lives). */
export async function bindGrant(ctx: ServiceContext, grantId: string, membership: MembershipView, ttlSeconds: number): Promise<void> {
  const binding: Binding = { userId: membership.userId, membershipId: membership.id, companyId: membership.companyId };
  await upsertPayload(ctx.db, {
    kind: KIND,
    id: grantId,
    payload: { ...binding },
    grantId,
    uid: null,
    userCode: null,
    expiresAt: new Date(ctx.clock.now().getTime() + ttlSeconds * 1000),
  });
}

/**
 * The membership the grant was made for, as it is now (its role may have changed), when it still
 * exists and belongs to this user; undefined for a grant without one or whose membership ended.
 */
export async function membershipOfGrant(ctx: ServiceContext, grantId: string, userId: string): Promise<MembershipView | undefined> {
  const row = await findPayload(ctx.db, KIND, grantId, ctx.clock.now());
  const binding = row?.payload as Partial<Binding> | undefined;
  if (!binding || binding.userId !== userId || typeof binding.membershipId !== 'string') return undefined;
  const membership = await getMembershipById(ctx, binding.membershipId);
  return membership && membership.userId === userId && membership.companyId === binding.companyId ? membership : undefined;
}

/** The user's membership now, when the grant was made for it: else the grant must not be used again. */
export async function grantStillCurrent(ctx: ServiceContext, grantId: string, userId: string): Promise<MembershipView | undefined> {
  const [bound, current] = await Promise.all([membershipOfGrant(ctx, grantId, userId), getMembership(ctx, userId)]);
  return bound && current && bound.id === current.id ? current : undefined;
}
