import { boolean, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { DeliveryStatus } from './retry-schedule.ts';

export const webhookSubscriptions = pgTable('webhook_subscriptions', {
  id: uuid('id').primaryKey(),
  companyId: uuid('company_id').notNull(),
  url: text('url').notNull(),
  events: text('events').array().notNull(),
  active: boolean('active').notNull(),
  disabledReason: text('disabled_reason').$type<DisabledReason>(),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
  failingSince: timestamp('failing_since', { withTimezone: true }),
  /** Failed attempts in a row; at the worker's threshold the circuit opens (migration 0027). */
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  /** While in the future, no delivery of the subscription is claimed; after it, one probe at a time. */
  circuitOpenUntil: timestamp('circuit_open_until', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

export type DisabledReason = 'ENDPOINT_GONE' | 'FAILING';

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey(),
    companyId: uuid('company_id').notNull(),
    subscriptionId: uuid('subscription_id').notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status').$type<DeliveryStatus>().notNull(),
    attemptCount: integer('attempt_count').notNull(),
    retryStep: integer('retry_step').notNull(),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    claimToken: uuid('claim_token'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [unique().on(table.subscriptionId, table.eventId)],
);

export const webhookDeliveryAttempts = pgTable('webhook_delivery_attempts', {
  id: uuid('id').primaryKey(),
  deliveryId: uuid('delivery_id').notNull(),
  attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
  statusCode: integer('status_code'),
  durationMs: integer('duration_ms').notNull(),
  error: text('error'),
  responseBody: text('response_body'),
});
