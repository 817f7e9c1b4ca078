import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { memberships, users } from './tables.ts';

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

export async function insertMembership(db: Db, row: MembershipRow): Promise<void> {
  await db.insert(memberships).values(row).onConflictDoUpdate({
    target: [memberships.userId, memberships.companyId],
    set: { role: row.role },
  });
}

export async function deleteMembership(db: Db, userId: string, companyId: string): Promise<boolean> {
  const rows = await db
    .delete(memberships)
    .where(and(eq(memberships.userId, userId), eq(memberships.companyId, companyId)))
    .returning();
  return rows.length > 0;
}
