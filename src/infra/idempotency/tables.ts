import { integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    companyId: uuid('company_id').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** Whose claim this is: a retry taking over an expired lease writes its own. */
    claimToken: uuid('claim_token'),
    /** Set in the transaction of the claimed request's change: never taken over after that. */
    changeCommittedAt: timestamp('change_committed_at', { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.companyId, table.idempotencyKey] })],
);
