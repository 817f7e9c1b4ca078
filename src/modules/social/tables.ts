import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** A user's account at a social provider: (provider, subject) signs in that user from then on. */
export const externalIdentities = pgTable(
  'external_identities',
  {
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    userId: uuid('user_id').notNull(),
    /** The e-mail the provider gave when the identity was linked (for support; not used to sign in). */
    email: text('email'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.subject] }), index('external_identities_user_idx').on(table.userId)],
);

/**
 * One upstream sign-in between our redirect to the provider and its redirect back: the PKCE
 * verifier and nonce stay on our side, keyed by a hash of the state. Used once, then deleted.
 */
export const socialSignInAttempts = pgTable(
  'social_sign_in_attempts',
  {
    stateHash: text('state_hash').primaryKey(),
    provider: text('provider').notNull(),
    interactionUid: text('interaction_uid').notNull(),
    codeVerifier: text('code_verifier').notNull(),
    nonce: text('nonce').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('social_sign_in_attempts_expires_idx').on(table.expiresAt)],
);
