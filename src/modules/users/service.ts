// Users and their memberships in companies. Every sign-in, whatever the identity provider, ends in
// signInVerifiedUser: the one place that decides who the person is and which company they act for.
import { randomUUID } from 'node:crypto';
import { withTransaction, type ServiceContext } from '../../shared/context.ts';
import { DomainError, ValidationError } from '../../shared/errors.ts';
import { unstorableText } from '../../shared/storable-text.ts';
import { createCompany } from '../companies/service.ts';
import { acceptInvitation } from './members.ts';
import {
  findMembershipById,
  findMembershipOfUser,
  findUser,
  insertMembership,
  upsertUserByEmail,
  type MembershipRow,
  type UserRow,
} from './repo.ts';

export type Role = 'ADMIN' | 'MEMBER';

export interface UserView {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  createdAt: string;
}

export interface MembershipView {
  /** This joining of the company: a person who leaves and joins again has a new one. */
  id: string;
  userId: string;
  companyId: string;
  role: Role;
}

export interface SignedInUser {
  user: UserView;
  membership: MembershipView;
  /** True when this sign-in created the user. */
  created: boolean;
}

export interface VerifiedIdentity {
  email: string;
  /** What the identity provider says; false (or absent) is refused: accounts link by e-mail only when verified. */
  emailVerified: boolean;
  name?: string | undefined;
  picture?: string | undefined;
}

/** The identity provider did not vouch for the e-mail address: never link or create an account on it. */
export class EmailNotVerifiedError extends DomainError {
  constructor() {
    super('EMAIL_NOT_VERIFIED', 'The identity provider has not verified this e-mail address');
  }
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toUserView(row: UserRow): UserView {
  return { id: row.id, email: row.email, name: row.name, picture: row.picture, createdAt: row.createdAt.toISOString() };
}

function toMembershipView(row: MembershipRow): MembershipView {
  return { id: row.id, userId: row.userId, companyId: row.companyId, role: row.role };
}

function bounded(value: string | undefined, max: number): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed.slice(0, max) : null;
}

/**
 * Where a person without a company finds one: a pending invitation for the user's (verified)
 * e-mail is accepted, joining the inviting company with the invited role (members.ts); without
 * one, a new company with the user as ADMIN.
 */
export async function acceptInvitationOrCreateCompany(ctx: ServiceContext, user: UserRow): Promise<MembershipRow> {
  const invited = await acceptInvitation(ctx, user);
  if (invited) return invited;
  const company = await createCompany(ctx, { name: `${user.name ?? user.email.split('@')[0]}'s company`.slice(0, 200) });
  return insertMembership(ctx.db, { id: randomUUID(), userId: user.id, companyId: company.id, role: 'ADMIN', createdAt: ctx.clock.now() });
}

/**
 * Signs in a person an identity provider has vouched for: finds or creates the user by verified
 * e-mail, refreshes name and picture, and on a first sign-in (or for a user with no company left)
 * gives them a company through acceptInvitationOrCreateCompany. One transaction.
 */
export async function signInVerifiedUser(ctx: ServiceContext, identity: VerifiedIdentity): Promise<SignedInUser> {
  if (identity.emailVerified !== true) throw new EmailNotVerifiedError();
  // Whatever the provider (or the development form) sent must fit the database, else a 500.
  for (const field of ['email', 'name', 'picture'] as const) {
    const value = identity[field];
    const why = typeof value === 'string' ? unstorableText(value) : undefined;
    if (why) throw ValidationError.field(field, why);
  }
  const email = normalizeEmail(identity.email ?? '');
  if (!EMAIL.test(email)) throw ValidationError.field('email', 'must be an e-mail address');
  return withTransaction(ctx, async (txCtx) => {
    const tx = txCtx.db;
    const now = ctx.clock.now();
    const { user, inserted } = await upsertUserByEmail(tx, {
      id: randomUUID(),
      email,
      name: bounded(identity.name, 200),
      picture: bounded(identity.picture, 2000),
      createdAt: now,
      updatedAt: now,
    });
    const membership = (await findMembershipOfUser(tx, user.id)) ?? (await acceptInvitationOrCreateCompany(txCtx, user));
    return { user: toUserView(user), membership: toMembershipView(membership), created: inserted };
  });
}

export async function getUser(ctx: ServiceContext, id: string): Promise<UserView | undefined> {
  const row = await findUser(ctx.db, id);
  return row ? toUserView(row) : undefined;
}

/** The company the user acts for and their role there; undefined when they belong to none. */
export async function getMembership(ctx: ServiceContext, userId: string): Promise<MembershipView | undefined> {
  const row = await findMembershipOfUser(ctx.db, userId);
  return row ? toMembershipView(row) : undefined;
}

/** One membership by its id; undefined once it has ended (the member was removed). */
export async function getMembershipById(ctx: ServiceContext, id: string): Promise<MembershipView | undefined> {
  const row = await findMembershipById(ctx.db, id);
  return row ? toMembershipView(row) : undefined;
}
