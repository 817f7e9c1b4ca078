import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** oidc-provider's artifacts, one JSON payload per row (see repo.ts). */
export const oidcPayloads = pgTable(
  'oidc_payloads',
  {
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    uid: text('uid'),
    userCode: text('user_code'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.kind, table.id] }), index('oidc_payloads_grant_idx').on(table.grantId)],
);

/** Generated signing keys (private JWKs) and cookie keys, newest first. */
export const oidcKeys = pgTable('oidc_keys', {
  id: uuid('id').primaryKey(),
  kind: text('kind').$type<'signing' | 'cookie'>().notNull(),
  material: jsonb('material').$type<Record<string, unknown>>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
