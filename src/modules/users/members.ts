// A company's members and the invitations that bring new ones in. An invitation is accepted by
// signing in with its (verified) e-mail address: acceptInvitation is called by signInVerifiedUser
// for a person without a company, who then joins the inviting company with the invited role
// instead of getting a company of their own.
import { randomUUID } from 'node:crypto';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { ConflictError, NotFoundError, ValidationError, type ErrorDetail } from '../../shared/errors.ts';
import { endPage, NEWEST_FIRST, startPage, toPage, type Page, type PageRequest } from '../../shared/pagination.ts';
import { recordAudit, type AuditActor } from '../audit/service.ts';
import { getCompany } from '../companies/service.ts';
import {
  claimOpenInvitation,
  countCompanyMembers,
  countOpenInvitations,
  deleteExpiredOpenInvitation,
  deleteMembership,
  deleteOpenInvitation,
  findMembership,
  findUser,
  findUserByEmail,
  insertInvitation,
  insertMembership,
  listCompanyMembers,
  listOpenInvitations,
  lockCompanyAdmins,
  type InvitationRow,
  type MemberRow,
  type MembershipRow,
  type UserRow,
} from './repo.ts';

type Role = MembershipRow['role'];

/** How long an invitation can be accepted. */
export const INVITATION_TTL_DAYS = 14;
/** Open invitations a company may have at once (an admin cannot flood the table). */
export const MAX_OPEN_INVITATIONS = 500;

const ROLES: readonly Role[] = ['ADMIN', 'MEMBER'];
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]+$/;

export interface InvitationView {
  id: string;
  email: string;
  role: Role;
  /** The admin who invited; null when an operator did, with the CLI. */
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  picture: string | null;
  role: Role;
  joinedAt: string;
}

function toInvitationView(row: InvitationRow): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

function toMemberView(row: MemberRow): MemberView {
  return {
    userId: row.userId,
    email: row.email,
    name: row.name,
    picture: row.picture,
    role: row.role,
    joinedAt: row.joinedAt.toISOString(),
  };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/**
 * Invites a person, by e-mail, to join the company with a role. 409 when they already are a
 * member or an invitation for the address is still open; an expired one is replaced.
 */
export async function inviteMember(
  ctx: ServiceContext,
  input: { companyId: string; email: string; role: string; invitedBy: string | null },
  actor?: AuditActor,
): Promise<InvitationView> {
  const details: ErrorDetail[] = [];
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
  if (email.length > 320 || !EMAIL.test(email)) details.push({ field: 'email', message: 'must be an e-mail address' });
  if (!ROLES.includes(input.role as Role)) details.push({ field: 'role', message: `must be one of ${ROLES.join(', ')}` });
  if (details.length > 0) throw new ValidationError(details);
  const role = input.role as Role;
  await getCompany(ctx, input.companyId); // 404 for an unknown company (the CLI)

  return withTransaction(ctx, async (transaction) => {
    const tx = transaction.db;
    const now = ctx.clock.now();
    const user = await findUserByEmail(tx, email);
    if (user && (await findMembership(tx, user.id, input.companyId))) {
      throw new ConflictError('This person is already a member of the company', [{ field: 'email', message: 'already a member' }]);
    }
    await deleteExpiredOpenInvitation(tx, input.companyId, email, now);
    if ((await countOpenInvitations(tx, input.companyId, now)) >= MAX_OPEN_INVITATIONS) {
      throw new ConflictError(`The company already has ${MAX_OPEN_INVITATIONS} open invitations: cancel some first`);
    }
    const row: InvitationRow = {
      id: randomUUID(),
      companyId: input.companyId,
      email,
      role,
      invitedBy: input.invitedBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000),
      acceptedAt: null,
      acceptedBy: null,
    };
    try {
      // A savepoint, so the unique violation does not abort the surrounding transaction.
      await tx.transaction(async (inner) => insertInvitation(inner, row));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      throw new ConflictError('An invitation for this address is already open', [{ field: 'email', message: 'already invited' }]);
    }
    await recordAudit(transaction, { companyId: row.companyId, actor, action: 'member.invited', target: { id: row.id, label: email }, detail: { role }, occurredAt: now });
    return toInvitationView(row);
  });
}

/** Open invitations (not accepted, not expired), newest first. */
export async function listInvitationsPage(ctx: ServiceContext, companyId: string, page: PageRequest): Promise<Page<InvitationView>> {
  const now = ctx.clock.now();
  const position = startPage(ctx.secrets, page, 'invitations', NEWEST_FIRST, { companyId });
  const [fetched, total] = await Promise.all([
    listOpenInvitations(ctx.db, companyId, now, position),
    countOpenInvitations(ctx.db, companyId, now),
  ]);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.createdAt, row.id]);
  return toPage(rows.map(toInvitationView), total, position, cursors);
}

/** Withdraws an open invitation; 404 when there is none with this id in the company. */
export async function cancelInvitation(ctx: ServiceContext, companyId: string, id: string, actor?: AuditActor): Promise<void> {
  await withTransaction(ctx, async (transaction) => {
    const tx = transaction.db;
    const cancelled = await deleteOpenInvitation(tx, companyId, id);
    if (!cancelled) throw new NotFoundError('Invitation');
    await recordAudit(transaction, { companyId, actor, action: 'member.invitation_cancelled', target: { id, label: cancelled.email }, occurredAt: ctx.clock.now() });
  });
}

/** The company's members, newest first. */
export async function listMembersPage(ctx: ServiceContext, companyId: string, page: PageRequest): Promise<Page<MemberView>> {
  const position = startPage(ctx.secrets, page, 'members', NEWEST_FIRST, { companyId });
  const [fetched, total] = await Promise.all([
    listCompanyMembers(ctx.db, companyId, position),
    countCompanyMembers(ctx.db, companyId),
  ]);
  const { rows, ...cursors } = endPage(fetched, position, (row) => [row.joinedAt, row.userId]);
  return toPage(rows.map(toMemberView), total, position, cursors);
}

/**
 * Removes a member from the company. Their access tokens fail from their next request on (every
 * request reads the membership). The last ADMIN cannot be removed: a company needs one.
 */
export async function removeMember(ctx: ServiceContext, companyId: string, userId: string, actor?: AuditActor): Promise<void> {
  await withTransaction(ctx, async (transaction) => {
    const tx = transaction.db;
    // Locks the admins' rows: two admins removing each other at once cannot leave none.
    const admins = await lockCompanyAdmins(tx, companyId);
    const membership = await findMembership(tx, userId, companyId);
    if (!membership) throw new NotFoundError('Member');
    if (membership.role === 'ADMIN' && admins.length <= 1) {
      throw new ConflictError('The last ADMIN of a company cannot be removed: invite another ADMIN first');
    }
    await deleteMembership(tx, userId, companyId);
    const user = await findUser(tx, userId);
    await recordAudit(transaction, {
      companyId,
      actor,
      action: 'member.removed',
      // By e-mail address: names need not be unique.
      target: { id: userId, label: user?.email ?? null },
      detail: { role: membership.role },
      occurredAt: ctx.clock.now(),
    });
  });
}

/**
 * For a person signing in without a company: accepts the newest open invitation for their
 * address, joining that company with the invited role. Runs inside the sign-in transaction;
 * undefined when there is none.
 */
export async function acceptInvitation(ctx: ServiceContext, user: UserRow): Promise<MembershipRow | undefined> {
  const now = ctx.clock.now();
  const invitation = await claimOpenInvitation(ctx.db, user.email, user.id, now);
  if (!invitation) return undefined;
  return insertMembership(ctx.db, { id: randomUUID(), userId: user.id, companyId: invitation.companyId, role: invitation.role, createdAt: now });
}
