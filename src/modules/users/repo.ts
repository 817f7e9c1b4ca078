import { and, asc, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { keysetAfter, keysetOrderBy } from '../../db/keyset.ts';
import type { PagePosition } from '../../shared/pagination.ts';
import { invitations, memberships, users } from './tables.ts';

export type UserRow = typeof users.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;

/**
 * Inserts the user, or refreshes name and picture of the one with this e-mail. Locks the row for
 * the rest of the transaction, so two first sign-ins at once cannot both create a company.
 */
export async function upsertUserByEmail(db: Db, row: UserRow): Promise<{ user: UserRow; inserted: boolean }> {
  const [user] = await db
    .insert(users)
    .values(row)
    .onConflictDoUpdate({
      target: users.email,
      set: {
        name: sql`coalesce(excluded.name, ${users.name})`,
        picture: sql`coalesce(excluded.picture, ${users.picture})`,
        updatedAt: row.updatedAt,
      },
    })
    .returning();
  await db.execute(sql`select 1 from users where id = ${user.id} for update`);
  return { user, inserted: user.id === row.id };
}

export async function findUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/** The user's membership; a user belongs to one company, the first they joined. */
export async function findMembershipOfUser(db: Db, userId: string): Promise<MembershipRow | undefined> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(eq(memberships.userId, userId))
    .orderBy(asc(memberships.createdAt), asc(memberships.companyId))
    .limit(1);
  return row;
}

/** Inserts the membership (or sets the role of the one already there) and answers the stored row. */
export async function insertMembership(db: Db, row: MembershipRow): Promise<MembershipRow> {
  const [stored] = await db
    .insert(memberships)
    .values(row)
    .onConflictDoUpdate({ target: [memberships.userId, memberships.companyId], set: { role: row.role } })
    .returning();
  return stored;
}

export async function findMembershipById(db: Db, id: string): Promise<MembershipRow | undefined> {
  const [row] = await db.select().from(memberships).where(eq(memberships.id, id)).limit(1);
  return row;
}

export async function deleteMembership(db: Db, userId: string, companyId: string): Promise<boolean> {
  const rows = await db
    .delete(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)))
    .returning();
  return rows.length > 0;
}

export type InvitationRow = typeof invitations.$inferSelect;

export interface MemberRow {
  userId: string;
  email: string;
  name: string | null;
  picture: string | null;
  role: 'ADMIN' | 'MEMBER';
  joinedAt: Date;
}

export async function findMembership(db: Db, userId: string, companyId: string): Promise<MembershipRow | undefined> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)))
    .limit(1);
  return row;
}

/** The company's ADMIN memberships, locked until the transaction ends. */
export async function lockCompanyAdmins(db: Db, companyId: string): Promise<MembershipRow[]> {
  return db
    .select()
    .from(memberships)
    .where(and(eq(memberships.companyId, companyId), eq(memberships.role, 'ADMIN')))
    .for('update');
}

export async function listCompanyMembers(db: Db, companyId: string, page: PagePosition): Promise<MemberRow[]> {
  const sortKeys = [memberships.createdAt, memberships.userId];
  return db
    .select({
      userId: users.id,
      email: users.email,
      name: users.name,
      picture: users.picture,
      role: memberships.role,
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.companyId, companyId), keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countCompanyMembers(db: Db, companyId: string): Promise<number> {
  return db.$count(memberships, eq(memberships.companyId, companyId));
}

const open = (now: Date) => and(isNull(invitations.acceptedAt), gt(invitations.expiresAt, now));

export async function insertInvitation(db: Db, row: InvitationRow): Promise<void> {
  await db.insert(invitations).values(row);
}

/** Clears an expired, never accepted invitation so the address can be invited again. */
export async function deleteExpiredOpenInvitation(db: Db, companyId: string, email: string, now: Date): Promise<void> {
  await db
    .delete(invitations)
    .where(
      and(
        eq(invitations.companyId, companyId),
        eq(invitations.email, email),
        isNull(invitations.acceptedAt),
        lte(invitations.expiresAt, now),
      ),
    );
}

export async function countOpenInvitations(db: Db, companyId: string, now: Date): Promise<number> {
  return db.$count(invitations, and(eq(invitations.companyId, companyId), open(now)));
}

export async function listOpenInvitations(
  db: Db,
  companyId: string,
  now: Date,
  page: PagePosition,
): Promise<InvitationRow[]> {
  const sortKeys = [invitations.createdAt, invitations.id];
  return db
    .select()
    .from(invitations)
    .where(and(eq(invitations.companyId, companyId), open(now), keysetAfter(sortKeys, page)))
    .orderBy(...keysetOrderBy(sortKeys, page))
    .limit(page.limit)
    .offset(page.offset);
}

/** Deletes the open invitation; answers its address, or undefined when there was none. */
export async function deleteOpenInvitation(db: Db, companyId: string, id: string): Promise<{ id: string; email: string } | undefined> {
  const rows = await db
    .delete(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.companyId, companyId), isNull(invitations.acceptedAt)))
    .returning({ id: invitations.id, email: invitations.email });
  return rows[0];
}

/** Marks the newest open invitation for the address accepted by the user, and returns it. */
export async function claimOpenInvitation(db: Db, email: string, userId: string, now: Date): Promise<InvitationRow | undefined> {
  const [candidate] = await db
    .select({ id: invitations.id })
    .from(invitations)
    .where(and(eq(invitations.email, email), open(now)))
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(1)
    .for('update');
  if (!candidate) return undefined;
  const [row] = await db
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(and(eq(invitations.id, candidate.id), isNull(invitations.acceptedAt)))
    .returning();
  return row;
}
