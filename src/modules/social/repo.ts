import { and, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { externalIdentities, socialSignInAttempts } from './tables.ts';

export type ExternalIdentityRow = typeof externalIdentities.$inferSelect;
export type SignInAttemptRow = typeof socialSignInAttempts.$inferSelect;

export async function findExternalIdentity(db: Db, provider: string, subject: string): Promise<ExternalIdentityRow | undefined> {
  const [row] = await db
    .select()
    .from(externalIdentities)
    .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, subject)))
    .limit(1);
  return row;
}

/** Links the identity unless it already is (two first sign-ins at once); returns the stored link. */
export async function insertExternalIdentity(db: Db, row: ExternalIdentityRow): Promise<ExternalIdentityRow> {
  await db.insert(externalIdentities).values(row).onConflictDoNothing();
  const stored = await findExternalIdentity(db, row.provider, row.subject);
  if (!stored) throw new Error('external identity vanished after insert');
  return stored;
}

export async function touchExternalIdentity(db: Db, provider: string, subject: string, at: Date): Promise<void> {
  await db
    .update(externalIdentities)
    .set({ lastSignInAt: at })
    .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, subject)));
}

export async function insertSignInAttempt(db: Db, row: SignInAttemptRow): Promise<void> {
  await db.insert(socialSignInAttempts).values(row);
}

/** Takes the attempt out of the store (each state is good for one callback only). */
export async function takeSignInAttempt(db: Db, stateHash: string): Promise<SignInAttemptRow | undefined> {
  const [row] = await db.delete(socialSignInAttempts).where(eq(socialSignInAttempts.stateHash, stateHash)).returning();
  return row;
}

export async function deleteExpiredSignInAttempts(db: Db, now: Date): Promise<number> {
  const rows = await db
    .delete(socialSignInAttempts)
    .where(lt(socialSignInAttempts.expiresAt, now))
    .returning({ stateHash: socialSignInAttempts.stateHash });
  return rows.length;
}
