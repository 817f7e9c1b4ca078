import { pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id').primaryKey(),
  email: text('email').notNull(),
  name: text('name'),
  picture: text('picture'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export const memberships = pgTable(
  'memberships',
  {
    /** New for each joining: tokens are bound to it (a person who leaves and joins again gets another). */
    id: uuid('id').notNull(),
    userId: uuid('user_id').notNull(),
    companyId: uuid('company_id').notNull(),
    role: text('role').$type<'ADMIN' | 'MEMBER'>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.companyId] }), uniqueIndex('memberships_id_idx').on(table.id)],
);

/** An invitation to join a company; accepted by signing in with the (verified) e-mail address. */
export const invitations = pgTable('invitations', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  email: text('email').notNull(),
  role: text('role').$type<'ADMIN' | 'MEMBER'>().notNull(),
  invitedBy: uuid('invited_by'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  acceptedBy: uuid('accepted_by'),
});
